import type { CatalogueProduct, ReplyOf } from './api';
import type { PublicShop } from './settings';

/**
 * What the server writes into a page's HTML for its first view (ADR 0028), so that the page paints without asking:
 * the shop's details, who is signed in (as GET /api/auth/session answers, or null), and for a rider's home page the products with their
 * stock, and the version of them the live stock stream compares with (`knownCatalogueParam`).
 */
export interface PageData {
  session: ReplyOf<'session'> | null;
  /** What every page shows of the shop's settings: the header's name, the footer's address and phone. */
  shop: PublicShop;
  catalogue?: { products: CatalogueProduct[]; version: string };
}

/** The id of the `<script type="application/json">` element that carries it. */
export const pageDataElementId = 'page-data';
