// The floor of Piaffe's order placement (POST /api/orders), written by hand (bench/README.md).
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type SQLite from 'better-sqlite3';
import { firstSettings } from '../src/server/db/migrations/0015-shop-settings';
import { firstShipping } from '../src/server/db/migrations/0023-shipping-zones';
import { countryCodes } from '../src/server/places/places';
import { methodCents } from '../src/server/pricing/shipping';
import { brand } from '../src/shared/brand';
import { limits } from '../src/shared/limits';
import { orderNumberPrefix } from '../src/shared/orders';
import { cartWriteRoutes } from './floor-cart-add';
import {
  type ConstraintCodes,
  error,
  type Handler,
  openFloorDatabase,
  publish,
  type Rider,
  readJson,
  reply,
  riderOf,
  serveFloor,
  signUpRoute,
  sqliteCodes,
} from './support/floor-kit';

export const hourMs = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------
// The request, checked by hand with the rules of src/shared/orders.ts placeOrderSchema.

interface Address {
  fullName: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  phone: string;
}
export interface PlaceOrder {
  address: Address;
  paymentMethod: string;
  idempotencyKey: string;
  cartItemIds: string[];
  /** The total the rider was shown: another than the order's is refused (order/cart-changed). */
  totalCents: number;
}

const fields = { fullName: 100, line1: 100, line2: 100, city: 60, region: 60, postalCode: 16, country: 2, phone: 30 };
const optional = new Set(['line2', 'phone']);
const noControlCharacters = /^[^\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]*$/u;
const postalCode = /^[\p{L}\p{N}][\p{L}\p{N} -]*$|^$/u;
const phone = /^[0-9+()./ -]*$/;
const countries = new Set<string>(countryCodes);
const paymentMethods = new Set<string>(firstSettings.paymentMethods);
/** A new shop's one method, the bench's orders all ship by (US addresses). */
const todaysMethod = (() => {
  const [method] = firstShipping.zones.flatMap((zone) => zone.methods);
  if (method === undefined) throw new Error('a new shop has a shipping method');
  return method;
})();
const keyPattern = /^[A-Za-z0-9_-]{16,64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The order asked for, or the name of the first field that is wrong. */
function check(body: unknown): PlaceOrder | string {
  if (!isObject(body)) return 'body';
  const keys = ['address', 'paymentMethod', 'idempotencyKey', 'cartItemIds', 'totalCents'];
  for (const key in body) if (!keys.includes(key)) return key;
  const given = body.address;
  if (!isObject(given)) return 'address';
  const address: Record<string, string> = {};
  for (const key in given) if (!(key in fields)) return 'address';
  for (const [name, max] of Object.entries(fields)) {
    const value = given[name] ?? (optional.has(name) ? '' : undefined);
    if (typeof value !== 'string') return 'address';
    const text = value.trim();
    if (text.length > max || (!optional.has(name) && text === '') || !noControlCharacters.test(text)) return 'address';
    address[name] = text;
  }
  if (!postalCode.test(address.postalCode as string) || !phone.test(address.phone as string)) return 'address';
  if (!countries.has(address.country as string)) return 'address';
  const { paymentMethod, idempotencyKey, cartItemIds } = body;
  if (typeof paymentMethod !== 'string' || !paymentMethods.has(paymentMethod)) return 'paymentMethod';
  if (typeof idempotencyKey !== 'string' || !keyPattern.test(idempotencyKey)) return 'idempotencyKey';
  if (
    !Array.isArray(cartItemIds) ||
    cartItemIds.length > limits.cartMaxRows ||
    !cartItemIds.every((id) => typeof id === 'string' && id.length <= 64)
  ) {
    return 'cartItemIds';
  }
  const { totalCents } = body;
  if (typeof totalCents !== 'number' || !Number.isInteger(totalCents) || totalCents < 0) return 'totalCents';
  return { address: address as unknown as Address, paymentMethod, idempotencyKey, cartItemIds, totalCents };
}

// ---------------------------------------------------------------------------------------------------------
// The confirmation e-mail, by hand: the same words as src/server/mail/templates/order-confirmation.ts.

const dollars = (cents: number) =>
  `$${String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(cents % 100).padStart(2, '0')}`;
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] as string);
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const label = 'padding:2px 16px 2px 0;color:#7a6a5c;vertical-align:top;';
const facts = (rows: [string, string][]) => ({
  text: (() => {
    const width = Math.max(...rows.map(([l]) => l.length));
    return rows.map(([l, v]) => `${`${l}:`.padEnd(width + 2)}${v}`).join('\n');
  })(),
  html: `<table role="presentation">${rows.map(([l, v]) => `<tr><td style="${label}">${escapeHtml(l)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`,
});

export function confirmation(order: OrderJson, site: string): { subject: string; text: string; html: string } {
  const a = order.address;
  const where = [
    a.fullName,
    a.line1,
    a.line2,
    `${a.city}, ${a.region} ${a.postalCode}`,
    regionNames.of(a.country) ?? a.country,
    a.phone ? `Phone: ${a.phone}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const total = dollars(order.totalCents);
  const bank = firstSettings.bankTransfer;
  const pay =
    order.paymentMethod === 'bank-transfer'
      ? {
          intro: `Please transfer ${total} within ${bank.payWithinDays} days to the account below, with your order number as the reference. We send your order once the money has arrived.`,
          facts: facts([
            ['Account name', bank.accountName],
            ['Bank', bank.bankName],
            ['Routing number', bank.routingNumber],
            ['Account number', bank.accountNumber],
            ['Reference', order.number],
            ['Amount', total],
          ]),
        }
      : {
          intro: `Collect your order at our yard and pay ${total} there. Please call us first to arrange a time, and bring your order number.`,
          facts: facts([
            ['Yard', firstSettings.shop.address],
            ['Phone', firstSettings.shop.phone],
            ['Order number', order.number],
            ['Amount to pay', total],
          ]),
        };
  const lines = facts(order.lines.map((line) => [line.name, dollars(line.priceCents)]));
  const sums = facts([
    ['Subtotal', dollars(order.subtotalCents)],
    ['Shipping', order.shippingCents === 0 ? 'Free' : dollars(order.shippingCents)],
    ['Total', total],
  ]);
  const link = `${site}/orders/${order.number}`;
  const greeting = `Hello ${a.fullName},`;
  const intro = `Thank you for your order ${order.number}. This is what you ordered:`;
  const signature = [
    `${firstSettings.shop.name} · ${brand.tagline}`,
    `${firstSettings.shop.address} · ${firstSettings.shop.phone}`,
  ];
  const text = [
    greeting,
    intro,
    lines.text,
    sums.text,
    'Prices include any tax.',
    `Delivery address: ${where}`,
    'How to pay',
    pay.intro,
    pay.facts.text,
    `See your order: ${link}`,
    signature.join('\n'),
  ].join('\n\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your order ${order.number}</title></head>
<body style="margin:0;padding:0;background:#f6f3ee;font-family:Georgia,serif;color:#2b2118;"><div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;">
<p style="margin:0;font-size:28px;color:#5b3a29;">${firstSettings.shop.name}</p><p style="margin:0 0 24px;font-size:14px;color:#7a6a5c;">${brand.tagline}</p>
<p>${escapeHtml(greeting)}</p>
<p>${intro}</p>${lines.html}${sums.html}<p>Prices include any tax.</p><p>Delivery address: ${escapeHtml(where)}</p><p>How to pay</p><p>${pay.intro}</p>${pay.facts.html}<p><a href="${link}" style="display:inline-block;padding:10px 18px;background:#5b3a29;color:#ffffff;text-decoration:none;border-radius:4px;">See your order</a></p>
<p style="margin-top:32px;font-size:12px;color:#7a6a5c;">${signature.map((line) => `${escapeHtml(line)}<br>`).join('')}</p>
</div></body></html>`;
  return { subject: `Your order ${order.number}`, text: `${text}\n`, html };
}

// ---------------------------------------------------------------------------------------------------------
// The placement: one transaction, one fsync. What does not depend on the database is written once here, for this
// floor and its PostgreSQL twin (floor-order-pg.ts), which differ only in their statements.

/** Thrown inside the placing's transaction when a size has fewer left than the order's rows ask for. */
export class SoldOut extends Error {}

export interface OrderJson {
  number: string;
  placedAt: string;
  status: string;
  itemCount: number;
  totalCents: number;
  email: string;
  lines: { itemid: string; name: string; priceCents: number; size: string | null }[];
  subtotalCents: number;
  shippingCents: number;
  address: Address;
  paymentMethod: string;
  history: { status: string; at: string; by: string; note: string | null }[];
}

/** A `shop_order` row as the database gives it back (PostgreSQL's bigints read as numbers, as Piaffe reads them). */
export interface OrderRow {
  number: number;
  email: string;
  status: string;
  payment_method: string;
  full_name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  phone: string;
  /** The parts of the order's money, as JSON. */
  money: string;
  total_cents: number;
  item_count: number;
  placed_at: number;
}

/** A cart row as the placing reads it, with whether it can still be ordered (its product shown, its size the product's). */
export interface CartRowToOrder {
  id: string;
  itemid: string;
  name: string;
  priceCents: number;
  size: string;
  /** 1 or 0 on SQLite, a boolean on PostgreSQL; null when the product is gone. */
  available: number | boolean | null;
}

/** A size's stock after an order took from it, for the live pages. */
export type Taken = { itemid: string; size: string; stock: number };

export type Placed =
  | { ok: true; created: boolean; order: OrderJson; taken: readonly Taken[] }
  | { ok: false; status: number; code: string; retryAfter?: number };

/** The refusal of a rider who placed the hour's limit of orders, the oldest of them at `oldest`. */
export function tooMany(oldest: number, now: number): Placed {
  const retryAfter = Math.max(1, Math.ceil((oldest + hourMs - now) / 1000));
  return { ok: false, status: 429, code: 'order/too-many', retryAfter };
}

/** Why the order of these cart rows cannot be placed, before any stock is taken; undefined when it can. */
export function refusalOf(items: readonly CartRowToOrder[], input: PlaceOrder): Placed | undefined {
  if (items.length === 0) return { ok: false, status: 409, code: 'order/cart-empty' };
  const seen = new Set(input.cartItemIds);
  if (seen.size !== input.cartItemIds.length || seen.size !== items.length || items.some((i) => !seen.has(i.id))) {
    return { ok: false, status: 409, code: 'order/cart-changed' };
  }
  if (totalOf(items) !== input.totalCents) return { ok: false, status: 409, code: 'order/cart-changed' };
  if (items.some((i) => !i.available)) return { ok: false, status: 409, code: 'order/unavailable' };
  return undefined;
}

function subtotalOf(items: readonly { priceCents: number }[]): number {
  let subtotalCents = 0;
  for (const item of items) subtotalCents += item.priceCents;
  return subtotalCents;
}

const shippingOf = (subtotalCents: number) => methodCents(todaysMethod, { weightGrams: 0, subtotalCents }) ?? 0;

/** What the rows cost with a new shop's shipping and no tax: the total a rider is shown for them, and sends. */
export function totalOf(items: readonly { priceCents: number }[]): number {
  const subtotalCents = subtotalOf(items);
  return subtotalCents + shippingOf(subtotalCents);
}

/** A size as the units and the lines' keys name it. */
export const sizeOf = (row: { itemid: string; size: string }) => `${row.itemid}\u0000${row.size}`;

/**
 * How many of each size the rows take, in a fixed order: the stock of every row is taken in it, all or nothing (a size
 * short rolls the transaction back).
 */
export function unitsOf(items: readonly CartRowToOrder[]): { itemid: string; size: string; count: number }[] {
  const units = new Map<string, { itemid: string; size: string; count: number }>();
  for (const { itemid, size } of items) {
    const key = sizeOf({ itemid, size });
    const unit = units.get(key) ?? { itemid, size, count: 0 };
    unit.count++;
    units.set(key, unit);
  }
  return [...units].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, unit]) => unit);
}

/** The order of these rows as placed `now` with `number`: the answer, and what its rows and its e-mail are made of. */
export function placedOrder(
  number: number,
  email: string,
  input: PlaceOrder,
  items: readonly CartRowToOrder[],
  now: number,
): OrderJson {
  const subtotalCents = subtotalOf(items);
  const shippingCents = shippingOf(subtotalCents);
  const placedAt = new Date(now).toISOString();
  return {
    number: `${orderNumberPrefix}${number}`,
    placedAt,
    status: 'placed',
    itemCount: items.length,
    totalCents: subtotalCents + shippingCents,
    email,
    lines: items.map(({ itemid, name, priceCents, size }) => ({ itemid, name, priceCents, size })),
    subtotalCents,
    shippingCents,
    address: input.address,
    paymentMethod: input.paymentMethod,
    history: [{ status: 'placed', at: placedAt, by: 'rider', note: null }],
  };
}

/**
 * The values of the order's row, in the order of both floors' inserts: number, uid, email, idempotency_key,
 * payment_method, the address's eight columns, money, total_cents, item_count, placed_at (the status is 'placed').
 */
export function orderRowValues(number: number, uid: string, input: PlaceOrder, order: OrderJson, now: number) {
  const a = input.address;
  const money = JSON.stringify({ subtotalCents: order.subtotalCents, shippingCents: order.shippingCents });
  return [
    number,
    uid,
    order.email,
    input.idempotencyKey,
    input.paymentMethod,
    a.fullName,
    a.line1,
    a.line2,
    a.city,
    a.region,
    a.postalCode,
    a.country,
    a.phone,
    money,
    order.totalCents,
    order.itemCount,
    now,
  ];
}

/** An order written before, from its rows: what a repeated idempotency key is answered with. */
export function orderOfRows(
  row: OrderRow,
  lines: OrderJson['lines'],
  history: { status: string; at: number; by: string; note: string | null }[],
): OrderJson {
  return {
    number: `${orderNumberPrefix}${row.number}`,
    placedAt: new Date(row.placed_at).toISOString(),
    status: row.status,
    itemCount: row.item_count,
    totalCents: row.total_cents,
    email: row.email,
    lines,
    ...(JSON.parse(row.money) as { subtotalCents: number; shippingCents: number }),
    address: {
      fullName: row.full_name,
      line1: row.line1,
      line2: row.line2,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
      phone: row.phone,
    },
    paymentMethod: row.payment_method,
    history: history.map((event) => ({ ...event, at: new Date(event.at).toISOString() })),
  };
}

/**
 * POST /api/orders on either database: the body checked, then `place` (the one transaction; `site` starts the
 * e-mail's links, as Piaffe's without PUBLIC_URL), then the events and the answer. `earlierOrder` finds the order of a
 * key that another request placed at the same moment (the unique constraint refused this one).
 */
export function placeOrderRoute(
  place: (rider: Rider, input: PlaceOrder, site: string) => Placed | Promise<Placed>,
  earlierOrder: (uid: string, key: string) => OrderJson | undefined | Promise<OrderJson | undefined>,
  codes: ConstraintCodes,
): Handler {
  let site = '';
  return async (request, response) => {
    const rider = riderOf(request);
    if (!rider) return error(response, 401, 'auth/unauthenticated');
    const body = await readJson(request, response);
    if (body === undefined) return;
    const input = check(body);
    if (typeof input === 'string') {
      const code =
        input === 'address'
          ? 'order/invalid-address'
          : input === 'paymentMethod'
            ? 'order/invalid-payment-method'
            : 'request/invalid-body';
      return error(response, 400, code);
    }
    site ||= `http://localhost:${request.socket.localPort}`;
    let placed: Placed;
    try {
      placed = await place(rider, input, site);
    } catch (failure) {
      if (failure instanceof SoldOut) return error(response, 409, 'order/sold-out');
      const code = (failure as { code?: string }).code;
      if (code === codes.foreignKey) return error(response, 401, 'auth/unauthenticated');
      // The same key, placed at the same moment by another request: answer that order.
      const order = code === codes.unique && (await earlierOrder(rider.uid, input.idempotencyKey));
      if (!order) throw failure;
      placed = { ok: true, created: false, order, taken: [] };
    }
    if (!placed.ok) {
      const retry = placed.retryAfter ? { 'Retry-After': String(placed.retryAfter) } : undefined;
      return reply(response, placed.status, { error: { code: placed.code } }, retry);
    }
    if (placed.created) {
      publish(`cart:${rider.uid}`, { type: 'emptied' });
      publish('outbox', { type: 'enqueued' });
      publish('orders', { type: 'placed', number: placed.order.number, status: 'placed' });
      for (const change of placed.taken) publish('stock', change);
    }
    reply(response, placed.created ? 201 : 200, { order: placed.order });
  };
}

// ---------------------------------------------------------------------------------------------------------
// On SQLite.

export function sqlitePlaceOrderRoute(db: SQLite.Database): Handler {
  const recent = db.prepare(
    `select count(*) as "count", min("placed_at") as "oldest" from "shop_order" where "uid" = ? and "placed_at" > ?`,
  );
  const cartOf = db.prepare(
    `select c."id", c."itemid", c."name", c."price_cents" as "priceCents", c."size",
       (p."shown" = 1 and (c."size" is null or s."size" is not null)) as "available"
     from "cart_item" c
     left join "product" p on p."itemid" = c."itemid"
     left join "product_size" s on s."itemid" = c."itemid" and s."size" = c."size"
     where c."uid" = ? order by c."created_at", c."id"`,
  );
  // Takes `count` only where at least that many are left; no row back means sold out. The size's key goes on the line.
  const take = db.prepare(
    `update "product_size" set "stock" = "stock" - ? where "itemid" = ? and "size" = ? and "stock" >= ? returning "stock", "key"`,
  );
  const bump = db
    .prepare(`update "counter" set "value" = "value" + 1 where "name" = 'order_number' returning "value"`)
    .pluck();
  const insertOrder = db.prepare(
    `insert into "shop_order" ("number", "uid", "email", "idempotency_key", "status", "payment_method", "full_name", "line1", "line2", "city", "region", "postal_code", "country", "phone", "money", "total_cents", "item_count", "placed_at") values (?, ?, ?, ?, 'placed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLine = db.prepare(
    `insert into "order_line" ("order_number", "position", "itemid", "name", "price_cents", "size", "size_key") values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    `insert into "order_event" ("order_number", "seq", "status", "at", "by_role", "by_uid", "by_email", "note") values (?, 1, 'placed', ?, 'rider', ?, ?, null)`,
  );
  const emptyCart = db.prepare(`delete from "cart_item" where "uid" = ?`);
  const insertMail = db.prepare(
    `insert into "outbox" ("id", "kind", "recipient", "subject", "text_body", "html_body", "state", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") values (?, 'order-confirmation', ?, ?, ?, ?, 'waiting', 0, ?, null, ?, null)`,
  );
  // Only off the usual path: a repeated idempotency key answers the order it made.
  const earlier = db.prepare(`select * from "shop_order" where "uid" = ? and "idempotency_key" = ?`);
  const linesOf = db.prepare(
    `select "itemid", "name", "price_cents" as "priceCents", "size" from "order_line" where "order_number" = ? order by "position"`,
  );
  const historyOf = db.prepare(
    `select "status", "at", "by_role" as "by", "note" from "order_event" where "order_number" = ? order by "seq"`,
  );

  function earlierOrder(uid: string, key: string): OrderJson | undefined {
    const row = earlier.get(uid, key) as OrderRow | undefined;
    if (!row) return undefined;
    return orderOfRows(
      row,
      linesOf.all(row.number) as OrderJson['lines'],
      historyOf.all(row.number) as { status: string; at: number; by: string; note: string | null }[],
    );
  }

  const place = db.transaction(({ uid, email }: Rider, input: PlaceOrder, site: string): Placed => {
    const now = Date.now();
    const again = () => {
      const order = earlierOrder(uid, input.idempotencyKey);
      return order && ({ ok: true, created: false, order, taken: [] } as const);
    };
    const { count, oldest } = recent.get(uid, now - hourMs) as { count: number; oldest: number };
    if (count >= limits.ordersPerHour) return again() ?? tooMany(oldest, now);
    const items = cartOf.all(uid) as CartRowToOrder[];
    const refused = refusalOf(items, input);
    if (refused) return again() ?? refused;
    const taken: Taken[] = [];
    const keys = new Map<string, string>();
    for (const unit of unitsOf(items)) {
      const left = take.get(unit.count, unit.itemid, unit.size, unit.count) as
        | { stock: number; key: string }
        | undefined;
      if (left === undefined) throw new SoldOut();
      taken.push({ itemid: unit.itemid, size: unit.size, stock: left.stock });
      keys.set(sizeOf(unit), left.key);
    }
    const number = bump.get() as number;
    const order = placedOrder(number, email, input, items, now);
    // A repeated key fails here on the unique (uid, idempotency_key): the route answers the earlier order.
    insertOrder.run(...orderRowValues(number, uid, input, order, now));
    for (const [index, item] of items.entries()) {
      insertLine.run(number, index + 1, item.itemid, item.name, item.priceCents, item.size, keys.get(sizeOf(item)));
    }
    insertEvent.run(number, now, uid, email);
    emptyCart.run(uid);
    const mail = confirmation(order, site);
    insertMail.run(randomUUID(), email, mail.subject, mail.text, mail.html, now, now);
    return { ok: true, created: true, order, taken };
  });

  return placeOrderRoute(place, earlierOrder, sqliteCodes);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const database = openFloorDatabase(process.argv[3]);
  serveFloor(
    {
      'POST /api/auth/signup': signUpRoute(database.db),
      'POST /api/cart': cartWriteRoutes(database.db).add,
      'POST /api/orders': sqlitePlaceOrderRoute(database.db),
    },
    database.remove,
  );
}
