/**
 * The contract's live streams (src/shared/api.ts): the events each Server-Sent Events stream of
 * src/shared/live-streams.ts carries, by SSE event name; each event's `data` line is the JSON of its fields.
 */
import './zod-config';
import { z } from 'zod';
import { catalogueProductSchema, stockSchema } from './api-catalogue';
import { cartItemSchema } from './api-orders';
import type { EventName, LiveStreamName } from './live-streams';
import { publicShopSchema } from './settings';

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
