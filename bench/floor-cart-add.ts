// The floor of Piaffe's cart add (POST /api/cart) and remove (DELETE /api/cart/:id), written by hand (bench/README.md).
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type SQLite from 'better-sqlite3';
import { limits } from '../src/shared/limits';
import {
  type ConstraintCodes,
  error,
  type Handler,
  openFloorDatabase,
  publish,
  readJson,
  reply,
  riderOf,
  serveFloor,
  signUpRoute,
  sqliteCodes,
} from './support/floor-kit';

const idPattern = /^[0-9a-f-]{1,64}$/i;

/** A product as the add copies it into the cart. */
export interface Product {
  itemid: string;
  name: string;
  priceCents: number;
  details: string;
  shown: number;
}

/** A row as the add writes it and answers it. */
export interface CartRow {
  id: string;
  uid: string;
  itemid: string;
  name: string;
  priceCents: number;
  details: string;
  size: string;
  available: true;
}

/** The row the add writes for `uid`: the product's fields copied, a new id. */
export function cartRowOf(uid: string, product: Product, size: string): CartRow {
  const { itemid, name, priceCents, details } = product;
  return { id: randomUUID(), uid, itemid, name, priceCents, details, size, available: true };
}

/** The add's body, `{ itemid, size }` and nothing else, as Piaffe's schema takes it; undefined when it is not. */
function addRequest(body: unknown): { itemid: string; size: string } | undefined {
  const { itemid, size } = (body ?? {}) as { itemid?: unknown; size?: unknown };
  if (
    typeof itemid !== 'string' ||
    itemid.length > 16 ||
    typeof size !== 'string' ||
    size.length > 32 ||
    Object.keys(body as object).length !== 2
  ) {
    return undefined;
  }
  return { itemid, size };
}

/** What the add does on the floor's database; either answer may be a promise (PostgreSQL's). */
export interface CartAdding {
  /** Which products there are and whether they are shown, in memory, as Piaffe keeps them between the owner's changes. */
  shown: Map<string, boolean>;
  /** The size's stock; undefined when the product has no such size. */
  stockOf(itemid: string, size: string): number | undefined | Promise<number | undefined>;
  /** One transaction: counts the rider's rows against the limit, reads the product as it is now, inserts the row. */
  add(
    uid: string,
    itemid: string,
    size: string,
  ): CartRow | 'full' | 'unavailable' | Promise<CartRow | 'full' | 'unavailable'>;
  /** The database's codes: a foreign key refuses the row when the user row is gone (a deleted account). */
  codes: ConstraintCodes;
}

/** POST /api/cart on either database: the body checked, the product and its size's stock, the add, its change event. */
export function cartAddRoute({ shown, stockOf, add, codes }: CartAdding): Handler {
  return async (request, response) => {
    const rider = riderOf(request);
    if (!rider) return error(response, 401, 'auth/unauthenticated');
    const body = await readJson(request, response);
    if (body === undefined) return;
    const asked = addRequest(body);
    if (!asked) return error(response, 400, 'request/invalid-body');
    const { itemid, size } = asked;
    const visible = shown.get(itemid);
    if (visible === undefined) return error(response, 404, 'cart/unknown-item');
    if (!visible) return error(response, 409, 'cart/unavailable');
    // The size's stock: it must be one of the product's, and not sold out (a cart holds no stock).
    const stock = await stockOf(itemid, size);
    if (stock === undefined) return error(response, 400, 'cart/invalid-size');
    if (stock <= 0) return error(response, 409, 'cart/sold-out');
    let item: Awaited<ReturnType<CartAdding['add']>>;
    try {
      item = await add(rider.uid, itemid, size);
    } catch (failure) {
      if ((failure as { code?: string }).code === codes.foreignKey) return error(response, 401, 'auth/unauthenticated');
      throw failure;
    }
    if (item === 'full') return error(response, 409, 'cart/full');
    if (item === 'unavailable') return error(response, 409, 'cart/unavailable');
    publish(`cart:${rider.uid}`, { type: 'added', item });
    reply(response, 201, { item });
  };
}

/** The add and the remove, each one committed transaction (one fsync) and its change event, as Piaffe does. */
export function cartWriteRoutes(db: SQLite.Database): { add: Handler; remove: Handler } {
  const shown = new Map(
    (db.prepare(`select "itemid", "shown" from "product"`).all() as { itemid: string; shown: number }[]).map((p) => [
      p.itemid,
      p.shown === 1,
    ]),
  );
  const count = db.prepare(`select count(*) from "cart_item" where "uid" = ?`).pluck();
  // The product as it is now, read in the add's transaction (an owner's new price never misses the new row).
  const productOf = db.prepare(
    `select "itemid", "name", "price_cents" as "priceCents", "details", "shown" from "product" where "itemid" = ?`,
  );
  const insert = db.prepare(
    `insert into "cart_item" ("id", "uid", "itemid", "name", "price_cents", "details", "size", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const stockOf = db.prepare(`select "stock" from "product_size" where "itemid" = ? and "size" = ?`).pluck();
  const remove = db.prepare(`delete from "cart_item" where "id" = ? and "uid" = ?`);
  // Counts the rider's rows and inserts the new one in one transaction, so the limit holds.
  const add = db.transaction((uid: string, itemid: string, size: string): CartRow | 'full' | 'unavailable' => {
    if ((count.get(uid) as number) >= limits.cartMaxRows) return 'full';
    const product = productOf.get(itemid) as Product | undefined;
    if (product?.shown !== 1) return 'unavailable';
    const item = cartRowOf(uid, product, size);
    insert.run(item.id, uid, item.itemid, item.name, item.priceCents, item.details, size, Date.now());
    return item;
  });

  return {
    add: cartAddRoute({
      shown,
      stockOf: (itemid, size) => stockOf.get(itemid, size) as number | undefined,
      add,
      codes: sqliteCodes,
    }),

    remove(request, response, id) {
      const rider = riderOf(request);
      if (!rider) return error(response, 401, 'auth/unauthenticated');
      // One statement is one transaction in SQLite: committed (and synced) before the answer.
      if (!idPattern.test(id) || remove.run(id, rider.uid).changes === 0) return error(response, 404, 'cart/not-found');
      publish(`cart:${rider.uid}`, { type: 'removed', id });
      reply(response, 204);
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const database = openFloorDatabase(process.argv[3]);
  const cart = cartWriteRoutes(database.db);
  serveFloor(
    {
      'POST /api/auth/signup': signUpRoute(database.db),
      'POST /api/cart': cart.add,
      'DELETE /api/cart/': cart.remove,
    },
    database.remove,
  );
}
