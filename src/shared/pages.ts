import type { Access } from './access';

export interface Page {
  /** The URL path; a segment `:name` matches any one segment (e.g. an order number). */
  path: string;
  /** The page's own part of the document title; see `pageTitle`. */
  title: string;
  /**
   * Who may see it (src/shared/access.ts): a visitor the page may not show is sent to signup-login, a rider on an
   * owner's page sees the Snap! page.
   */
  access: Access;
  /**
   * The page follows a live stream of its own, which carries the session's events too; every other page a signed-in
   * rider opens follows the account stream for them (src/client/app/use-account-stream.ts).
   */
  stream?: true;
}

/**
 * Every page of the app (docs/product.md §7): the client's router is built from this table, and the
 * server answers every other path with the Snap! page and HTTP 404.
 */
export const pages = {
  home: { path: '/home', title: 'Shop', access: 'shop', stream: true },
  product: { path: '/products/:slug', title: 'Product', access: 'shop', stream: true },
  cart: { path: '/cart', title: 'Your cart', access: 'shop', stream: true },
  signupLogin: { path: '/signup-login', title: 'Sign up or log in', access: 'anyone' },
  manageAccount: { path: '/manage-account', title: 'Your account', access: 'rider' },
  checkout: { path: '/checkout', title: 'Checkout', access: 'rider' },
  orders: { path: '/orders', title: 'Your orders', access: 'rider' },
  order: { path: '/orders/:number', title: 'Your order', access: 'rider' },
  orderReturn: { path: '/orders/:number/return', title: 'Return items', access: 'rider' },
  resetPassword: { path: '/reset-password', title: 'Reset your password', access: 'anyone' },
  confirmEmail: { path: '/confirm-email', title: 'Confirm your e-mail address', access: 'anyone' },
  admin: { path: '/admin', title: 'Orders · Back office', access: 'owner', stream: true },
  adminOrder: { path: '/admin/orders/:number', title: 'Order · Back office', access: 'owner' },
  adminReturns: { path: '/admin/returns', title: 'Returns · Back office', access: 'owner', stream: true },
  adminReturn: { path: '/admin/returns/:number', title: 'Return · Back office', access: 'owner', stream: true },
  adminOutbox: { path: '/admin/outbox', title: 'Outbox · Back office', access: 'owner' },
  adminPayments: { path: '/admin/payments', title: 'Payments · Back office', access: 'owner' },
  adminInvoices: { path: '/admin/invoices', title: 'Invoices · Back office', access: 'owner' },
  adminReports: { path: '/admin/reports', title: 'Reports · Back office', access: 'owner' },
  adminProducts: { path: '/admin/products', title: 'Products · Back office', access: 'owner' },
  adminNewProduct: { path: '/admin/products/new', title: 'New product · Back office', access: 'owner' },
  adminProduct: { path: '/admin/products/:itemid', title: 'Product · Back office', access: 'owner' },
  adminSettings: { path: '/admin/settings', title: 'Settings · Back office', access: 'owner' },
  adminCategories: { path: '/admin/categories', title: 'Categories · Back office', access: 'owner' },
  adminDiscounts: { path: '/admin/discounts', title: 'Discounts · Back office', access: 'owner' },
} as const satisfies Record<string, Page>;

export type PageName = keyof typeof pages;

/** The query of signup-login that names the page to go to once signed in (docs/product.md §23). */
export const nextParam = 'next';

/** Signup-login, then the page at `path`. */
export function signInThen(path: string): string {
  return `${pages.signupLogin.path}?${nextParam}=${encodeURIComponent(path)}`;
}

/** Where signing in leads: the page `next` names, when it is one of the shop's or a rider's pages; else home. */
export function pageAfterSignIn(next: string | null): string {
  const page = next === null ? undefined : findPage(next);
  return next !== null && (page?.access === 'shop' || page?.access === 'rider') ? next : pages.home.path;
}

/** The page `/` redirects to. */
export const startPage = pages.home;

/** The title of the Snap! page, shown for every path that is not a page. */
export const notFoundTitle = 'Page not found';

/** A document title: the page's own title, then the shop's name (src/client/components/document-title.tsx). */
export function pageTitle(title: string, shopName: string): string {
  return shopName ? `${title} · ${shopName}` : title;
}

/**
 * Home's own part of the title for the list its address asks for (docs/product.md §22): a search's words, else the
 * category's name, else 'Shop'; and the page after the first. The server's HTML and the page say the same.
 */
export function homeTitle(list: { q?: string; categoryName?: string; page: number }): string {
  const q = list.q?.trim();
  const what = q ? `Search: ${q}` : (list.categoryName ?? pages.home.title);
  return list.page > 1 ? `${what} · Page ${list.page}` : what;
}

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.split('/');
  return (
    want.length === got.length && want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]))
  );
}

/** The page shown at `pathname`, or undefined for the Snap! page. Paths are matched exactly, case and all. */
export function findPage(pathname: string): Page | undefined {
  return Object.values(pages).find((page: Page) => matches(page.path, pathname));
}
