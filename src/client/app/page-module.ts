/**
 * The file name of a page's module, by the convention the router and the budget check (scripts/check-budget.ts)
 * both follow: the page `manageAccount` of src/shared/pages.ts is `manage-account-page.tsx` in its feature's
 * folder, and its default export is the page.
 */
export function pageModuleFile(pageName: string): string {
  return `${pageName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}-page.tsx`;
}
