import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router';

/** A page's module: the page as its default export, and the data it needs before it shows, if any. */
export interface PageModule {
  default: ComponentType;
  loader?: LoaderFunction;
}

/** Page modules by their paths, each loaded (a chunk of its own) when first asked for: what import.meta.glob gives. */
export type PageModules = Record<string, () => Promise<PageModule>>;

/**
 * The file name of a page's module, by the convention the router and the budget check (scripts/check-budget.ts)
 * both follow: the page `manageAccount` of src/shared/pages.ts is `manage-account-page.tsx` in its feature's
 * folder, and its default export is the page.
 */
export function pageModuleFile(pageName: string): string {
  return `${pageName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}-page.tsx`;
}
