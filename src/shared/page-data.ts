import type { CartItem, ReplyOf } from './api';
import type { ProductDetails, ProductPage } from './finding';
import type { PublicShop } from './settings';

/**
 * What the server writes into a page's HTML for its first view (ADR 0028), so that the page paints without asking:
 * the shop's details, who is signed in (as GET /api/auth/session answers, or null), and for a rider's home page the
 * page of the list its address asks for (as GET /api/products answers), and the version of the products the live
 * stock stream compares with (`knownParam`); for a rider's product page, the product (as GET
 * /api/products/:slug answers) and that version; for a rider's cart, its rows (as the cart stream's snapshot has them)
 * and their version, which the cart stream compares with.
 */
export interface PageData {
  session: ReplyOf<'session'> | null;
  /** What every page shows of the shop's settings: the header's name, the footer's address and phone. */
  shop: PublicShop;
  catalogue?: { list: ProductPage; version: string };
  product?: { product: ProductDetails; version: string };
  cart?: { items: CartItem[]; version: string };
}

/** The id of the `<script type="application/json">` element that carries it. */
export const pageDataElementId = 'page-data';
