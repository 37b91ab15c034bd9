import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { StockAlert } from '../../shared/api';
import { limits } from '../../shared/limits';
import type { Db, UnitOfWork } from '../db/database';
import type { Tables } from '../db/schema';
import type { Outbox } from '../mail/outbox';

// Back in stock (docs/product.md §27, docs/decisions/0058-back-in-stock.md): a rider's wait for a size out of stock,
// and its end, with one e-mail, in the unit of work that raises the size's stock.

/** A size whose stock a unit of work has just set or raised, with its stock now (the update's returned row). */
export interface RisenSize {
  itemid: string;
  key: string;
  stock: number;
}

/**
 * THE place where waits end with an e-mail: every change that may raise a size's stock (the owner's form, `npm run
 * stock`, a cancelled order's units given back) calls it, through `StockStore.rose`, in its own unit of work, after its
 * update of the size's row. The sizes now above zero lose every open wait, each deleted once with its e-mail written
 * to the outbox in the order the riders asked; a hidden product's waits end without one. On PostgreSQL the update
 * holds the size's row until the unit commits, so a second unit raising the same size (on any server) reaches this
 * point only after the first has committed, and its delete finds those waits gone: one e-mail per wait, however many
 * raise it at once. A new wait locks the same row (`wait` below), so none slips in between.
 */
export async function endWaits(uow: UnitOfWork, outbox: Outbox, risen: readonly RisenSize[]): Promise<void> {
  const above = new Set(risen.filter((s) => s.stock > 0).map((s) => JSON.stringify([s.itemid, s.key])));
  if (above.size === 0) return;
  let waited = uow.trx.selectFrom('stock_wait').select(['itemid', 'size_key']).distinct();
  // One product's sizes (the form, a cancel) look only at its waits; `npm run stock -- set all` at every one.
  const items = new Set(risen.map((s) => s.itemid));
  if (items.size <= 100) waited = waited.where('itemid', 'in', [...items]);
  const sizes = (await waited.orderBy('itemid').orderBy('size_key').execute()).filter((w) =>
    above.has(JSON.stringify([w.itemid, w.size_key])),
  );
  for (const { itemid, size_key: key } of sizes) {
    const ended = await uow.trx
      .deleteFrom('stock_wait')
      .where('itemid', '=', itemid)
      .where('size_key', '=', key)
      .returning(['id', 'uid', 'created_at'])
      .execute();
    if (ended.length === 0) continue;
    const about = await uow.trx
      .selectFrom('product_size')
      .innerJoin('product', 'product.itemid', 'product_size.itemid')
      .select(['product.name', 'product.slug', 'product.shown', 'product_size.size'])
      .where('product_size.itemid', '=', itemid)
      .where('product_size.key', '=', key)
      .executeTakeFirst();
    if (!about || Number(about.shown) !== 1) continue;
    const riders = await uow.trx
      .selectFrom('user')
      .select(['id', 'email'])
      .where(
        'id',
        'in',
        ended.map((w) => w.uid),
      )
      .execute();
    const emailOf = new Map(riders.map((r) => [r.id, r.email]));
    const inOrder = ended.sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1));
    for (const wait of inOrder) {
      const to = emailOf.get(wait.uid);
      if (to === undefined) continue;
      await outbox.enqueue(uow, 'back-in-stock', to, { product: about.name, size: about.size, slug: about.slug });
    }
  }
}

/** Ends every wait for the product's sizes, without an e-mail: the owner hid it. */
export async function endWaitsOfHidden(uow: UnitOfWork, itemid: string): Promise<void> {
  await uow.trx.deleteFrom('stock_wait').where('itemid', '=', itemid).execute();
}

/** How many riders wait for each of the product's sizes, by the size's name (the owner's product page). */
export async function waitingBySize(executor: Kysely<Tables>, itemid: string): Promise<Record<string, number>> {
  const rows = await executor
    .selectFrom('stock_wait')
    .innerJoin('product_size', (join) =>
      join.onRef('product_size.itemid', '=', 'stock_wait.itemid').onRef('product_size.key', '=', 'stock_wait.size_key'),
    )
    .select((eb) => ['product_size.size', eb.fn.countAll<number | string>().as('count')])
    .where('stock_wait.itemid', '=', itemid)
    .groupBy('product_size.size')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.size, Number(r.count)]));
}

/** Why a wait was not made. */
export type WaitRefusal = 'unknown-product' | 'unknown-size' | 'in-stock' | 'too-many';

export type StockWaits = ReturnType<typeof createStockWaits>;

/** A rider's waits: made, listed and cancelled from the shop's pages. */
export function createStockWaits(db: Db) {
  function listOf(executor: Kysely<Tables>, uid: string, id?: string) {
    let query = executor
      .selectFrom('stock_wait')
      .innerJoin('product_size', (join) =>
        join
          .onRef('product_size.itemid', '=', 'stock_wait.itemid')
          .onRef('product_size.key', '=', 'stock_wait.size_key'),
      )
      .innerJoin('product', 'product.itemid', 'stock_wait.itemid')
      .select([
        'stock_wait.id',
        'stock_wait.itemid',
        'stock_wait.created_at',
        'product.name',
        'product.slug',
        'product_size.size',
      ])
      .where('stock_wait.uid', '=', uid);
    if (id !== undefined) query = query.where('stock_wait.id', '=', id);
    return query.orderBy('stock_wait.created_at').orderBy('stock_wait.id').execute();
  }
  const toAlert = (row: Awaited<ReturnType<typeof listOf>>[number]): StockAlert => ({
    id: row.id,
    itemid: row.itemid,
    product: row.name,
    slug: row.slug,
    size: row.size,
    since: new Date(Number(row.created_at)).toISOString(),
  });

  return {
    /**
     * The rider waits for the size, unless it is in stock: a second wait for the same size is the first one again
     * (`created` false). The size's row is locked first, as every raise of its stock locks it, so a wait is either
     * made before a raise (which then ends it) or refused after it.
     */
    wait(
      uid: string,
      itemid: string,
      size: string,
    ): Promise<{ ok: true; alert: StockAlert; created: boolean } | { ok: false; reason: WaitRefusal }> {
      return db.run(async (uow) => {
        // Two waits of one rider at once count one after the other against the limit.
        await uow.lock('stock-wait', uid);
        const product = await uow.trx
          .selectFrom('product')
          .select('shown')
          .where('itemid', '=', itemid)
          .executeTakeFirst();
        if (!product || Number(product.shown) !== 1) return { ok: false, reason: 'unknown-product' } as const;
        // An update that changes nothing: it takes the size's row lock (PostgreSQL) and answers only when it is out.
        const [out] = await uow.trx
          .updateTable('product_size')
          .set((eb) => ({ stock: eb.ref('stock') }))
          .where('itemid', '=', itemid)
          .where('size', '=', size)
          .where('stock', '=', 0)
          .returning('key')
          .execute();
        if (!out) {
          const exists = await uow.trx
            .selectFrom('product_size')
            .select('key')
            .where('itemid', '=', itemid)
            .where('size', '=', size)
            .executeTakeFirst();
          return { ok: false, reason: exists ? 'in-stock' : 'unknown-size' } as const;
        }
        const mine = await uow.trx
          .selectFrom('stock_wait')
          .select('id')
          .where('uid', '=', uid)
          .where('itemid', '=', itemid)
          .where('size_key', '=', out.key)
          .executeTakeFirst();
        let id = mine?.id;
        if (id === undefined) {
          const open = await uow.trx
            .selectFrom('stock_wait')
            .select((eb) => eb.fn.countAll<number | string>().as('count'))
            .where('uid', '=', uid)
            .executeTakeFirst();
          if (Number(open?.count ?? 0) >= limits.stockAlertsMax) return { ok: false, reason: 'too-many' } as const;
          id = randomUUID();
          await uow.trx
            .insertInto('stock_wait')
            .values({ id, uid, itemid, size_key: out.key, created_at: Date.now() })
            .execute();
        }
        const [row] = await listOf(uow.trx, uid, id);
        if (!row) throw new Error('A wait vanished inside the unit that made it.');
        return { ok: true, alert: toAlert(row), created: mine === undefined } as const;
      });
    },

    /** The rider's open waits, oldest first. */
    async list(uid: string): Promise<StockAlert[]> {
      return (await listOf(db.kysely, uid)).map(toAlert);
    },

    /** Cancels one of the rider's waits; false when the rider has no such wait (ended, cancelled, another's). */
    async cancel(uid: string, id: string): Promise<boolean> {
      const result = await db.kysely
        .deleteFrom('stock_wait')
        .where('id', '=', id)
        .where('uid', '=', uid)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
