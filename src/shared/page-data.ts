import type { CartItem, Place, Quote, ReplyOf } from './api';
import type { ProductDetails, ProductPage } from './finding';
import type { PublicShop } from './settings';

/**
 * What the server writes into a page's HTML for its first view (ADR 0028), so that the page paints without asking:
 * the shop's details, who is signed in (as GET /api/auth/session answers, or null), and for a rider's home page the
 * page of the list its address asks for (as GET /api/products answers), and the version of the products the live
 * stock stream compares with (`knownParam`); for a rider's product page, the product (as GET
 * /api/products/:slug answers) and that version; for a rider's cart, its rows (as the cart stream's snapshot has them)
 * and their version, which the cart stream compares with; for a rider's checkout, the quote its query asks for and the
 * payment methods (as GET /api/checkout/quote and GET /api/payment-methods answer), and the places its address form
 * starts with (as GET /api/places and GET /api/places/:country answer).
 */
export interface PageData {
  session: ReplyOf<'session'> | null;
  /** What every page shows of the shop's settings: the header's name, the footer's address and phone. */
  shop: PublicShop;
  catalogue?: { list: ProductPage; version: string };
  product?: { product: ProductDetails; version: string };
  cart?: { items: CartItem[]; version: string };
  /** Left out when the query names a discount code (the quote with one is asked, and counted, through the API). */
  checkout?: { quote: Quote; methods: string[] };
  /** The countries, and each country's subdivisions, by its code: the address form's first country's. */
  places?: { countries: readonly Place[]; regions: Record<string, readonly Place[]> };
}

/** The id of the `<script type="application/json">` element that carries it. */
export const pageDataElementId = 'page-data';

/**
 * A page rendered on the server names the app's scripts in a `<meta>` of this name (the entry first, then the files
 * to preload), and loads only `afterFirstPaintScript`, which fetches them once the page is on the screen
 * (docs/decisions/0063-public-pages-rendered-on-the-server.md).
 */
export const appScriptsMetaName = 'app-scripts';
export const afterFirstPaintScript = '/after-first-paint.js';
