/**
 * The API's contract, used by both sides: every endpoint's method and path, the schema of its request
 * body and of its answer. The server registers its routes from these paths and validates bodies with these
 * schemas; the browser builds its calls from them and checks every answer. See docs/API.md.
 */
import './zod-config';
import { z } from 'zod';
import { addressFields, defaultCountry } from './address';
import {
  adminOrdersQuery,
  exportQuery,
  orderMoveSchema,
  outboxEmailSchema,
  outboxPageSchema,
  outboxQuery,
  paymentProblemPageSchema,
} from './admin';
import {
  adminCategorySchema,
  categoryEditSchema,
  categoryOrderSchema,
  categoryRemoveQuery,
  newCategorySchema,
} from './categories';
import { deliveries } from './delivery';
import { discountSchema, discountSwitchSchema, newDiscountSchema } from './discounts';
import {
  type CatalogueProduct,
  catalogueProductSchema,
  productDetailsSchema,
  productPageSchema,
  productQuery,
} from './finding';
import { documentMonthSchema, documentPaths, documentsQuery, monthQuery } from './invoices';
import { type EventName, type LiveStreamName, liveStreams } from './live-streams';
import { oneKey, orderKeys, orderMoneySchema, orderPageSchema, orderSchema, placeOrderSchema } from './orders';
import { pageNumber } from './paging';
import {
  authenticationOptionsSchema,
  newPasskeySchema,
  passkeyLogInSchema,
  passkeySchema,
  registrationOptionsSchema,
} from './passkeys';
import {
  adminProductSchema,
  newProductSchema,
  pictureOrderSchema,
  productChangeSchema,
  productEditSchema,
  productOrderSchema,
} from './products';
import { roles } from './roles';
import { publicShopSchema, settingsChangeSchema, settingsEditSchema, versionedSettingsSchema } from './settings';
import type { ShippingOption } from './shipping';
import {
  addToCartSchema,
  credentialsSchema,
  linkSchema,
  newEmailSchema,
  newPasswordSchema,
  resetPasswordSchema,
  resetRequestSchema,
  stockAlertRequestSchema,
} from './validation';

/** Who is signed in; `emailConfirmed` until then false after a sign-up or a change of address (§15). */
export const sessionUserSchema = z.object({ uid: z.string(), email: z.string(), emailConfirmed: z.boolean() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * One of the rider's log-ins, as the account page lists them (docs/product.md §4): known by the session's row id,
 * never by its token. `userAgent` is the header the log-in came with (src/shared/user-agent.ts names it), `address`
 * the client address it came from, `lastUsedAt` when it was last used (to within `lastUseStepMinutes`; now, for
 * `current`), all ISO 8601. `current` is the session of the request: 'This device'.
 */
export const accountSessionSchema = z.object({
  id: z.string(),
  userAgent: z.string(),
  address: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export { type CatalogueProduct, catalogueProductSchema };

/**
 * A rider's open wait for a size out of stock (docs/product.md §27): the product's name and slug and the size's name as
 * they are now, `since` when it was asked for (ISO 8601).
 */
export const stockAlertSchema = z.object({
  id: z.string(),
  itemid: z.string(),
  product: z.string(),
  slug: z.string(),
  size: z.string(),
  since: z.string(),
});
export type StockAlert = z.infer<typeof stockAlertSchema>;

export const cartItemSchema = z.object({
  id: z.string(),
  /** The rider whose row it is; null in a visitor's cart (docs/product.md §23). */
  uid: z.string().nullable(),
  itemid: z.string(),
  name: z.string(),
  /** Integer cents. */
  priceCents: z.number().int(),
  details: z.string(),
  /** The size chosen; null for a row added before the shop had sizes (checkout asks for one). */
  size: z.string().nullable(),
  /** False once the owner hid the product or removed the size: 'No longer available', and checkout refuses it. */
  available: z.boolean(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

/**
 * The choices a quote is for: the delivery (shipping when left out), the address's country, region (ISO 3166-1
 * alpha-2 and 3166-2, or the region as typed: the shop's country and none when left out) and postal code (for the tax
 * rates of a postal code prefix; none when left out) and the delivery method (the zone's first).
 */
export const quoteQuery = z.strictObject({
  delivery: z.enum(deliveries, { error: 'delivery must be shipping or collection.' }).default('shipping'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country must be a code such as US.')
    .default(defaultCountry),
  region: z.string().max(addressFields.region.max).default(''),
  postalCode: z.string().max(addressFields.postalCode.max).default(''),
  method: z.string().max(64).optional(),
  /** 'Apply': the quote with this discount code, or why it cannot be used (`discount/...`). */
  discountCode: z.string().max(64).optional(),
});
export type QuoteQuery = z.infer<typeof quoteQuery>;

/** A delivery method as the checkout lists it (src/shared/shipping.ts's ShippingOption). */
export const shippingOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  cents: z.number().int(),
  estimate: z.string(),
}) satisfies z.ZodType<ShippingOption>;

/** A country or one of its subdivisions (ISO 3166): its code and English name. */
export const placeSchema = z.object({ code: z.string(), name: z.string() });
export type Place = z.infer<typeof placeSchema>;

/**
 * The checkout's quote: the rider's cart rows and what the shop charges for them. The page shows it and sends its
 * total back with the order; `place` refuses another (`order/cart-changed`).
 */
export const quoteSchema = z.object({
  items: z.array(cartItemSchema),
  /** With the chosen method's price; the goods alone when there is none. */
  money: orderMoneySchema,
  shipping: z.object({
    /** The methods for the address (or collection), in the owner's order, each priced for this cart. */
    options: z.array(shippingOptionSchema),
    /** The id of the method priced in `money`; null when there is none, and `refusal` says why. */
    chosen: z.string().nullable(),
    refusal: z.string().optional(),
  }),
});
export type Quote = z.infer<typeof quoteSchema>;

/** A stream's event schemas: one for each event name of src/shared/live-streams.ts, and no other. */
type EventSchemas<N extends LiveStreamName> = Record<EventName<N>, z.ZodType>;

/**
 * The events every live stream of a signed-in page carries besides its own: `signed-out` when its session has ended
 * (the page goes to signup-login), `account` when what the session says of the rider has changed (the address
 * confirmed, say: the page asks for the session again), `shop` with the shop's details when the owner has saved the
 * settings (the footer follows).
 */
export const sessionEventSchemas = {
  'signed-out': z.looseObject({}),
  account: z.looseObject({}),
  shop: publicShopSchema,
} as const;

/**
 * The events of the account stream (GET /api/account/stream), followed by the pages that follow no stream of their
 * own: `ready` once it follows, then the session's events.
 */
export const accountEventSchemas = {
  ready: z.looseObject({}),
  ...sessionEventSchemas,
} as const satisfies EventSchemas<'account'>;

/**
 * The events of the live cart stream (Server-Sent Events on GET /api/cart/stream), by SSE event name; each
 * event's `data` line is the JSON of its fields.
 */
export const cartEventSchemas = {
  snapshot: z.object({ items: z.array(cartItemSchema) }),
  added: z.object({ item: cartItemSchema }),
  removed: z.object({ id: z.string() }),
  ...sessionEventSchemas,
} as const satisfies EventSchemas<'cart'>;
export type CartEventType = keyof typeof cartEventSchemas;
export type CartEvent = {
  [T in CartEventType]: { type: T } & z.infer<(typeof cartEventSchemas)[T]>;
}[CartEventType];

/** How many of one size of a product are on the shelf. */
export const stockSchema = z.object({ itemid: z.string(), size: z.string(), stock: z.number().int() });
export type Stock = z.infer<typeof stockSchema>;

/**
 * The events of the live stock stream (GET /api/catalogue/stream): the shown products' stock and the products first,
 * then each change of a shown product's stock; both again whenever the owner changes the products or changes may
 * have been missed. A hidden product is in none of them.
 */
export const stockEventSchemas = {
  snapshot: z.object({ stock: z.array(stockSchema) }),
  stock: stockSchema,
  /** The products as the home page shows them, first and whenever the owner changes the catalogue. */
  products: z.object({ products: z.array(catalogueProductSchema) }),
  ...sessionEventSchemas,
} as const satisfies EventSchemas<'catalogue'>;
export type StockEventType = keyof typeof stockEventSchemas;
export type StockEvent = {
  [T in StockEventType]: { type: T } & z.infer<(typeof stockEventSchemas)[T]>;
}[StockEventType];

/**
 * The events of the rider's order stream (GET /api/orders/stream): `ready` once it follows, then `order` whenever one
 * of the rider's orders is placed or moved (a card payment confirmed, say); the page reloads that order.
 */
export const orderEventSchemas = {
  ready: z.looseObject({}),
  order: z.object({ number: z.string() }),
  ...sessionEventSchemas,
} as const satisfies EventSchemas<'orders'>;

/** The events of the owners' order stream (GET /api/admin/orders/stream): a bare nudge per change of any order. */
export const adminEventSchemas = {
  ready: z.looseObject({}),
  orders: z.looseObject({}),
  ...sessionEventSchemas,
} as const satisfies EventSchemas<'adminOrders'>;

/** Who is signed in, and whether they may open the back office. */
const userReply = z.object({ user: sessionUserSchema, role: z.enum(roles) });
const orderReply = z.object({ order: orderSchema });
const productReply = z.object({ product: adminProductSchema });
const categoriesReply = z.object({ categories: z.array(adminCategorySchema) });

const pageQuery = z.strictObject({ page: pageNumber });

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path; a segment `:name` is a parameter, filled in by the caller. */
  path: string;
  /** The query string it takes (each value a string); none when absent. */
  query?: z.ZodType;
  /** The JSON body it takes; none when absent. */
  body?: z.ZodType;
  /** The JSON it answers with; `204 No Content` when absent. */
  reply?: z.ZodType;
  /** It takes a file as the body, as it is (a picture), instead of JSON. */
  file?: true;
}

export const endpoints = {
  signUp: { method: 'POST', path: '/api/auth/signup', body: credentialsSchema, reply: userReply },
  logIn: { method: 'POST', path: '/api/auth/login', body: credentialsSchema, reply: userReply },
  logOut: { method: 'POST', path: '/api/auth/logout' },
  session: { method: 'GET', path: '/api/auth/session', reply: userReply },
  /**
   * A challenge for 'Log in with a passkey' and the browser's passkey autofill, valid for 5 minutes and once; it rides
   * in an HttpOnly cookie. Under /api/auth/login, so that the device cookie of a password log-in reaches it too.
   */
  passkeyLogInOptions: { method: 'POST', path: '/api/auth/login/passkey/options', reply: authenticationOptionsSchema },
  /** The browser's answer to that challenge; a new session, like a password log-in. */
  passkeyLogIn: { method: 'POST', path: '/api/auth/login/passkey', body: passkeyLogInSchema, reply: userReply },
  /** Answers 204 whether or not the address has an account. */
  requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', body: resetRequestSchema },
  checkResetLink: { method: 'POST', path: '/api/auth/password-reset/check', body: linkSchema },
  resetPassword: { method: 'POST', path: '/api/auth/password-reset/confirm', body: resetPasswordSchema },
  /** Opens the link that confirms an address: no session needed (the token is the proof); `email` is the address. */
  confirmEmail: {
    method: 'POST',
    path: '/api/auth/email-confirmation',
    body: linkSchema,
    reply: z.object({ email: z.string() }),
  },
  /** 'Send it again': a new link to the signed-in rider's address, throttled per account and per client address. */
  resendConfirmation: { method: 'POST', path: '/api/auth/email-confirmation/send' },
  changeEmail: { method: 'PUT', path: '/api/account/email', body: newEmailSchema },
  changePassword: { method: 'PUT', path: '/api/account/password', body: newPasswordSchema },
  deleteAccount: { method: 'DELETE', path: '/api/account' },
  /** Server-Sent Events: `accountEventSchemas`; for pages that follow no other stream. */
  accountStream: { method: 'GET', path: liveStreams.account.path },
  /** The rider's live sessions: this device first, then the most recently used. */
  accountSessions: {
    method: 'GET',
    path: '/api/account/sessions',
    reply: z.object({ sessions: z.array(accountSessionSchema) }),
  },
  /** Ends one of the rider's sessions, on every server; ending this device's is a log-out (the cookie is cleared). */
  endAccountSession: { method: 'DELETE', path: '/api/account/sessions/:id' },
  /** 'Log out of all other devices': ends every session of the rider but this one; `ended` says how many. */
  endOtherSessions: {
    method: 'POST',
    path: '/api/account/sessions/end-others',
    reply: z.object({ ended: z.number().int() }),
  },
  /** The rider's passkeys, oldest first. */
  passkeys: { method: 'GET', path: '/api/account/passkeys', reply: z.object({ passkeys: z.array(passkeySchema) }) },
  /** A challenge for adding a passkey (needs a recent log-in), valid for 5 minutes and once, in an HttpOnly cookie. */
  passkeyRegistrationOptions: {
    method: 'POST',
    path: '/api/account/passkeys/options',
    reply: registrationOptionsSchema,
  },
  /** The browser's new passkey, answering that challenge, and its name (needs a recent log-in). */
  addPasskey: {
    method: 'POST',
    path: '/api/account/passkeys',
    body: newPasskeySchema,
    reply: z.object({ passkey: passkeySchema }),
  },
  removePasskey: { method: 'DELETE', path: '/api/account/passkeys/:id' },
  /** The rider's back-in-stock alerts, oldest first. */
  stockAlerts: {
    method: 'GET',
    path: '/api/account/stock-alerts',
    reply: z.object({ alerts: z.array(stockAlertSchema) }),
  },
  /** 'Email me when it is back': 201 for a new alert, 200 with the same one when the rider already waits for the size. */
  addStockAlert: {
    method: 'POST',
    path: '/api/account/stock-alerts',
    body: stockAlertRequestSchema,
    reply: z.object({ alert: stockAlertSchema }),
  },
  cancelStockAlert: { method: 'DELETE', path: '/api/account/stock-alerts/:id' },
  /** The products with their sizes and stock; open to everyone. */
  catalogue: { method: 'GET', path: '/api/catalogue', reply: z.object({ products: z.array(catalogueProductSchema) }) },
  /** A page of the shown products, searched and filtered (docs/product.md §22); open to everyone. */
  products: { method: 'GET', path: '/api/products', query: productQuery, reply: productPageSchema },
  /** A shown product's page by any slug it has had (`product.slug` is its current one); 404 `product/no-page`. */
  product: { method: 'GET', path: '/api/products/:slug', reply: z.object({ product: productDetailsSchema }) },
  /** Server-Sent Events: `stockEventSchemas`. */
  catalogueStream: { method: 'GET', path: liveStreams.catalogue.path },
  cart: { method: 'GET', path: '/api/cart', reply: z.object({ items: z.array(cartItemSchema) }) },
  addToCart: { method: 'POST', path: '/api/cart', body: addToCartSchema, reply: z.object({ item: cartItemSchema }) },
  removeFromCart: { method: 'DELETE', path: '/api/cart/:id' },
  /** Server-Sent Events: `cartEventSchemas`. */
  cartStream: { method: 'GET', path: liveStreams.cart.path },
  /** The checkout's quote: the rider's cart and what it costs (`place` charges exactly its total). */
  quote: { method: 'GET', path: '/api/checkout/quote', query: quoteQuery, reply: quoteSchema },
  /** The payment methods this shop offers at checkout, by id, in order (Card only with Stripe's keys). */
  paymentMethods: { method: 'GET', path: '/api/payment-methods', reply: z.object({ methods: z.array(z.string()) }) },
  /** The countries an address may be in (ISO 3166-1), by name: the address form's and the shipping zones' list. */
  countries: { method: 'GET', path: '/api/places', reply: z.object({ countries: z.array(placeSchema) }) },
  /** A country's subdivisions (ISO 3166-2, 'US-FL'), by name: its state field's list; 404 places/unknown-country. */
  regions: { method: 'GET', path: '/api/places/:country', reply: z.object({ regions: z.array(placeSchema) }) },
  /** What every page shows of the shop's settings (the footer's address and phone): for anyone, signed in or not. */
  shop: { method: 'GET', path: '/api/shop', reply: publicShopSchema },
  /**
   * For a card order, `payUrl`: Stripe's page to pay on; `payError` instead when Stripe could not be reached (the
   * order is placed all the same; its page offers 'Pay now').
   */
  placeOrder: {
    method: 'POST',
    path: '/api/orders',
    body: placeOrderSchema,
    reply: orderReply.extend({ payUrl: z.string().optional(), payError: z.string().optional() }),
  },
  orders: { method: 'GET', path: '/api/orders', query: oneKey(orderKeys), reply: orderPageSchema },
  /** Server-Sent Events: `orderEventSchemas`. */
  ordersStream: { method: 'GET', path: liveStreams.orders.path },
  order: { method: 'GET', path: '/api/orders/:number', reply: orderReply },
  cancelOrder: { method: 'POST', path: '/api/orders/:number/cancel', reply: orderReply },
  /** 'Pay now': a new Stripe Checkout Session for a card order still waiting for its payment; `url` is its page. */
  payOrder: { method: 'POST', path: '/api/orders/:number/pay', reply: z.object({ url: z.string() }) },
  /** `application/pdf`: the order's invoice, once paid (404 invoice/not-found before, or for another rider's order). */
  orderInvoice: { method: 'GET', path: documentPaths.orderInvoice },
  /** `application/pdf`: the credit note of an order cancelled after it was invoiced. */
  orderCreditNote: { method: 'GET', path: documentPaths.orderCreditNote },
  /** Stripe's webhook: signed by Stripe (Stripe-Signature), not by a browser; answers 204 once acted on. */
  stripeWebhook: { method: 'POST', path: '/api/payments/stripe/webhook' },
  // The back office: owners only (403 auth/forbidden for a rider).
  adminOrders: { method: 'GET', path: '/api/admin/orders', query: adminOrdersQuery, reply: orderPageSchema },
  /** Server-Sent Events: `orders` {} whenever any order is placed or moved; the page reloads its list. */
  adminOrdersStream: { method: 'GET', path: liveStreams.adminOrders.path },
  /** `text/csv`, one row per order line, of the days `from` to `to` (both included, in the shop's time zone). */
  adminExport: { method: 'GET', path: '/api/admin/orders.csv', query: exportQuery },
  adminOrder: { method: 'GET', path: '/api/admin/orders/:number', reply: orderReply },
  adminMoveOrder: { method: 'POST', path: '/api/admin/orders/:number/moves', body: orderMoveSchema, reply: orderReply },
  /** The invoices and credit notes of a month (by default the shop's current one), in the order issued. */
  adminInvoices: { method: 'GET', path: '/api/admin/invoices', query: documentsQuery, reply: documentMonthSchema },
  /** `application/zip`, streamed: every PDF of the month and `summary.csv`. */
  adminInvoicesZip: { method: 'GET', path: documentPaths.adminInvoicesZip, query: monthQuery },
  /** `application/pdf`: one invoice or credit note, by its number. */
  adminInvoice: { method: 'GET', path: documentPaths.adminInvoice },
  /** Stripe's webhook events that did not match an order, newest first. */
  adminPaymentProblems: {
    method: 'GET',
    path: '/api/admin/payments/problems',
    query: pageQuery,
    reply: paymentProblemPageSchema,
  },
  /** The shop's settings for the owner's form, with the history of their saves, newest first. */
  adminSettings: {
    method: 'GET',
    path: '/api/admin/settings',
    reply: z.object({ settings: versionedSettingsSchema, history: z.array(settingsChangeSchema) }),
  },
  /** The owner's whole form; 409 settings/changed when `version` is not the settings'. */
  adminSaveSettings: {
    method: 'PUT',
    path: '/api/admin/settings',
    body: settingsEditSchema,
    reply: z.object({ settings: versionedSettingsSchema }),
  },
  adminProducts: {
    method: 'GET',
    path: '/api/admin/products',
    reply: z.object({ products: z.array(adminProductSchema) }),
  },
  adminCreateProduct: { method: 'POST', path: '/api/admin/products', body: newProductSchema, reply: productReply },
  /** Every product's item number, in the home page's new order. */
  adminOrderProducts: {
    method: 'PUT',
    path: '/api/admin/product-order',
    body: productOrderSchema,
    reply: z.object({ products: z.array(adminProductSchema) }),
  },
  adminProduct: {
    method: 'GET',
    path: '/api/admin/products/:itemid',
    /** `waiting`: how many riders wait for each size out of stock, by the size's name (none listed: nobody). */
    reply: productReply.extend({
      history: z.array(productChangeSchema),
      waiting: z.record(z.string(), z.number().int()),
    }),
  },
  /** The owner's whole form; 409 product/changed when `version` is not the product's. */
  adminUpdateProduct: {
    method: 'PUT',
    path: '/api/admin/products/:itemid',
    body: productEditSchema,
    reply: productReply,
  },
  /** The picture's bytes as the body (JPEG, PNG or WebP, at most 5 MB); the server makes both pictures of it. */
  adminProductPicture: { method: 'PUT', path: '/api/admin/products/:itemid/picture', file: true, reply: productReply },
  /** One more picture, last of the product's (it replaces the stand-in of a product without one); at most eight. */
  adminAddProductPicture: {
    method: 'POST',
    path: '/api/admin/products/:itemid/pictures',
    file: true,
    reply: productReply,
  },
  /** The pictures kept, in their new order (the first is the card's); 409 product/changed for a stale `version`. */
  adminOrderProductPictures: {
    method: 'PUT',
    path: '/api/admin/products/:itemid/pictures',
    body: pictureOrderSchema,
    reply: productReply,
  },
  adminCategories: { method: 'GET', path: '/api/admin/categories', reply: categoriesReply },
  adminCreateCategory: {
    method: 'POST',
    path: '/api/admin/categories',
    body: newCategorySchema,
    reply: z.object({ category: adminCategorySchema }),
  },
  /** Its name and size guide; 409 category/changed for a stale `version`. */
  adminUpdateCategory: {
    method: 'PUT',
    path: '/api/admin/categories/:slug',
    body: categoryEditSchema,
    reply: z.object({ category: adminCategorySchema }),
  },
  /** 409 category/has-products unless `withProducts=1`: its products then leave it (and stay in the shop). */
  adminRemoveCategory: {
    method: 'DELETE',
    path: '/api/admin/categories/:slug',
    query: categoryRemoveQuery,
    reply: categoriesReply,
  },
  /** Every category's slug, in the new order. */
  adminOrderCategories: {
    method: 'PUT',
    path: '/api/admin/category-order',
    body: categoryOrderSchema,
    reply: categoriesReply,
  },
  adminDiscounts: {
    method: 'GET',
    path: '/api/admin/discounts',
    reply: z.object({ discounts: z.array(discountSchema) }),
  },
  /** 409 discount/code-taken when a code of the same letters, in any case, exists. */
  adminCreateDiscount: {
    method: 'POST',
    path: '/api/admin/discounts',
    body: newDiscountSchema,
    reply: z.object({ discount: discountSchema }),
  },
  /** Switches a code off (riders are told it is not valid) or on again; a code is never deleted. */
  adminSwitchDiscount: {
    method: 'PUT',
    path: '/api/admin/discounts/:id/enabled',
    body: discountSwitchSchema,
    reply: z.object({ discount: discountSchema }),
  },
  adminOutbox: { method: 'GET', path: '/api/admin/outbox', query: outboxQuery, reply: outboxPageSchema },
  adminRetryEmail: {
    method: 'POST',
    path: '/api/admin/outbox/:id/retry',
    reply: z.object({ email: outboxEmailSchema }),
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
type Spec<N extends EndpointName> = (typeof endpoints)[N];

/** The query an endpoint takes, or `undefined` when it takes none. */
export type QueryOf<N extends EndpointName> =
  Spec<N> extends { query: z.ZodType } ? z.input<Spec<N>['query']> : undefined;
/** The body an endpoint takes, or `undefined` when it takes none. */
export type BodyOf<N extends EndpointName> = Spec<N> extends { body: z.ZodType } ? z.input<Spec<N>['body']> : undefined;
/** What an endpoint answers with, or `undefined` for `204 No Content`. */
export type ReplyOf<N extends EndpointName> =
  Spec<N> extends { reply: z.ZodType } ? z.infer<Spec<N>['reply']> : undefined;
