/**
 * The live streams (Server-Sent Events, docs/API.md "Live streams"): where each is and the names of its events, without
 * their schemas (src/shared/api-streams.ts `*EventSchemas`, which bring zod). A page opens its stream and hears its
 * events at once; the schemas load with the first event that needs checking (src/client/lib/live-events.ts), so a
 * page whose stream stays quiet never loads them (ADR 0028).
 */

/**
 * The events every stream of a signed-in page carries besides its own (src/shared/api-streams.ts
 * `sessionEventSchemas`): the session's, and the shop's details when the owner saves the settings.
 */
const sessionEvents = ['signed-out', 'account', 'shop'] as const;

/**
 * The event a stream that has no snapshot sends as it starts to follow (the account's, the orders'): it carries no
 * fields, so a page hears it without loading the schemas.
 */
export const readyEvent = 'ready';

export const liveStreams = {
  account: { path: '/api/account/stream', events: [readyEvent, ...sessionEvents] },
  catalogue: { path: '/api/catalogue/stream', events: ['snapshot', 'stock', 'products', ...sessionEvents] },
  cart: { path: '/api/cart/stream', events: ['snapshot', 'added', 'removed', ...sessionEvents] },
  orders: { path: '/api/orders/stream', events: [readyEvent, 'order', ...sessionEvents] },
  adminOrders: { path: '/api/admin/orders/stream', events: [readyEvent, 'orders', ...sessionEvents] },
} as const;

export type LiveStreamName = keyof typeof liveStreams;
export type EventName<N extends LiveStreamName> = (typeof liveStreams)[N]['events'][number];

/**
 * The catalogue's and the cart's streams' query parameter naming the version of what a page already shows (the
 * products or the cart's rows its HTML came with): while it is still the server's, the stream sends no first snapshot.
 */
export const knownParam = 'known';
