/**
 * The API's contract, used by both sides: every endpoint's method and path, the schema of its request
 * body and of its answer. The server registers its routes from these paths and validates bodies with these
 * schemas; the browser builds its calls from them and checks every answer. See docs/API.md.
 *
 * This module assembles the contract from its areas, each beside it: `api-account.ts` (signing in, the rider's
 * account), `api-catalogue.ts` (the products as shown), `api-orders.ts` (cart, checkout, orders), `api-admin.ts` (the
 * back office) and `api-streams.ts` (the live streams' events). Callers import it from here.
 */
import type { z } from 'zod';
import { accountEndpoints } from './api-account';
import { adminEndpoints } from './api-admin';
import { catalogueEndpoints } from './api-catalogue';
import type { Endpoint } from './api-endpoint';
import { orderEndpoints } from './api-orders';

export {
  type AccountSession,
  accountSessionSchema,
  type SessionUser,
  type StockAlert,
  sessionUserSchema,
  stockAlertSchema,
} from './api-account';
export { type CatalogueProduct, catalogueProductSchema, type Stock, stockSchema } from './api-catalogue';
export type { Endpoint } from './api-endpoint';
export {
  type CartItem,
  cartItemSchema,
  type Place,
  placeSchema,
  type Quote,
  type QuoteQuery,
  quoteQuery,
  quoteSchema,
  shippingOptionSchema,
} from './api-orders';
export {
  accountEventSchemas,
  adminEventSchemas,
  type CartEvent,
  type CartEventType,
  cartEventSchemas,
  orderEventSchemas,
  type StockEvent,
  type StockEventType,
  sessionEventSchemas,
  stockEventSchemas,
} from './api-streams';

/**
 * Every endpoint, by name, in the order of its area (the access gate, src/server/auth/access-gate.ts, tries the
 * paths of as many parameters in this order).
 */
export const endpoints = {
  ...accountEndpoints,
  ...catalogueEndpoints,
  ...orderEndpoints,
  // The back office: owners only (403 auth/forbidden for a rider).
  ...adminEndpoints,
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
