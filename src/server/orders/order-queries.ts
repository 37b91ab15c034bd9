import { setImmediate } from 'node:timers/promises';
import { sql } from 'kysely';
import { limits } from '../../shared/limits';
import { type Order, type OrderPage, type OrderStatus, orderNumberOf, orderNumberPrefix } from '../../shared/orders';
import { taxLimits } from '../../shared/settings';
import type { Db } from '../db/database';
import type { OrderLineTable } from '../db/schema';
import { type OrderRow, readOrder, toOrder, toSummary } from './order-mapping';

/** Which orders a list shows, and which page of them. */
export interface OrderFilter {
  /** Only the orders of this rider (the rider's own list); all orders for an owner. */
  uid?: string;
  status?: OrderStatus;
  /** An order number (`PF-10001` or `10001`) or part of an e-mail address. */
  search?: string;
  /** The orders numbered below it; the newest when neither key is given. */
  before?: number;
  /** The orders numbered above it. */
  after?: number;
}

/** An export of the orders of some days, as `exportOf` finds it before its first row. */
export interface OrderExport {
  /** The days, as epoch ms: from `from` until before `until`. */
  from: number;
  until: number;
  /** The first and the last order number of the days when the export began; none when they have no orders. */
  numbers: { first: number; last: number } | undefined;
  taxNames: string[];
}

/** How many order numbers one query of an export's tax names spans (some 20 ms of SQLite's time on a small machine). */
const taxScanOrders = 5_000;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Reading orders: one, a page of them, or the days of an export (a batch at a time). */
export function createOrderQueries({ db, cardPaymentMs }: { db: Db; cardPaymentMs: number }) {
  /**
   * A page of orders, newest first, read by key (docs/decisions/0043-the-order-list-by-key.md): the newest, or the
   * page below `before`, or the page above `after`. Each reads its rows from where the key is in an index (the
   * primary key, or the filter's `(status, number)` or `(uid, number)`), so a page deep in the list costs what the
   * first does; the count stops at `limits.orderCountMax`.
   */
  async function list({ uid, status, search, before, after }: OrderFilter): Promise<OrderPage> {
    let query = db.kysely.selectFrom('shop_order');
    if (uid !== undefined) query = query.where('uid', '=', uid);
    if (status) query = query.where('status', '=', status);
    const term = search?.trim().toLowerCase();
    if (term) {
      const prefix = orderNumberPrefix.toLowerCase();
      const number = orderNumberOf(term.startsWith(prefix) ? term.slice(prefix.length) : term);
      query = query.where((eb) =>
        eb.or([
          // A backslash escapes LIKE's wildcards: SQLite has no escape character unless told.
          sql<boolean>`${eb.ref('email')} like ${`%${likeLiteral(term)}%`} escape '\\'`,
          ...(number !== undefined ? [eb('number', '=', number)] : []),
        ]),
      );
    }
    const size = limits.pageSize;
    /** Whether the list has an order numbered `comparison` `key`, for the pages beside this one. */
    const any = async (comparison: '<=' | '>=', key: number) =>
      (await query.select('number').where('number', comparison, key).limit(1).executeTakeFirst()) !== undefined;
    let rows: OrderRow[];
    let newer: boolean;
    let older: boolean;
    if (after !== undefined) {
      const above = await query
        .selectAll()
        .where('number', '>', after)
        .orderBy('number')
        .limit(size + 1)
        .execute();
      // The newest page is always read as such, full, whichever way the owner came to it.
      if (above.length <= size) return list({ uid, status, search });
      rows = above.slice(0, size).reverse();
      newer = true;
      older = await any('<=', after);
    } else {
      const below = await (before === undefined ? query : query.where('number', '<', before))
        .selectAll()
        .orderBy('number', 'desc')
        .limit(size + 1)
        .execute();
      rows = below.slice(0, size);
      newer = before !== undefined && (await any('>=', before));
      older = below.length > size;
    }
    // Counted up to one past the most a list says exactly: never more index entries than that, however big the shop.
    const { count } = await db.kysely
      .selectFrom(
        query
          .select('number')
          .limit(limits.orderCountMax + 1)
          .as('listed'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    const highest = rows.at(0)?.number;
    const lowest = rows.at(-1)?.number;
    return {
      orders: rows.map(toSummary),
      total: Math.min(Number(count), limits.orderCountMax),
      more: Number(count) > limits.orderCountMax,
      // An empty page (its orders gone since its key was given) still leads to the orders beside its key.
      newer: newer ? Number(highest ?? (before as number) - 1) : null,
      older: older ? Number(lowest) : null,
    };
  }

  return {
    /** One order; with `uid`, only if it is that rider's (another rider's number is simply not found). */
    get(number: number, { uid, forOwner = false }: { uid?: string; forOwner?: boolean }): Promise<Order | undefined> {
      return readOrder(db.kysely, number, { forOwner, cardPaymentMs, uid });
    },

    list,

    /**
     * What an export of the orders placed from `from` until before `until` (epoch ms) holds, read before its first
     * row: the first and the last order number of the days, and the tax names their orders carry, in the order first
     * met (by order number, then as each order lists them). Orders placed once the export has begun are in the next.
     */
    async exportOf(from: number, until: number): Promise<OrderExport> {
      const { first, last } = await db.kysely
        .selectFrom('shop_order')
        .select((eb) => [eb.fn.min('number').as('first'), eb.fn.max('number').as('last')])
        .where('placed_at', '>=', from)
        .where('placed_at', '<', until)
        .executeTakeFirstOrThrow();
      if (first === null || last === null) return { from, until, numbers: undefined, taxNames: [] };
      const numbers = { first: Number(first), last: Number(last) };
      // Only the orders whose money names tax lines are read as JSON; the others cost a LIKE. A name is placed by
      // where it is first met, (order, line) as one number: an order has fewer tax lines than the shop may have rates.
      // A span of order numbers at a time, the event loop free in between: SQLite reads JSON on the server's thread.
      const withTax = sql<boolean>`shop_order.money like '%"taxLines"%'`;
      const firstMet = sql`min(shop_order.number * ${sql.lit(taxLimits.ratesMax)} + tax.key)`;
      const taxNames = new Set<string>();
      for (let after = numbers.first - 1; after < numbers.last; after += taxScanOrders) {
        const span = sql`shop_order.number > ${after} and shop_order.number <= ${Math.min(after + taxScanOrders, numbers.last)}`;
        const names =
          db.dialect === 'postgres'
            ? await sql<{ name: string }>`select tax.line ->> 'name' as name
                from shop_order, jsonb_array_elements(shop_order.money::jsonb -> 'taxLines') with ordinality as tax(line, key)
                where ${span} and placed_at >= ${from} and placed_at < ${until} and ${withTax}
                group by 1 order by ${firstMet}`.execute(db.kysely)
            : await sql<{ name: string }>`select json_extract(tax.value, '$.name') as name
                from shop_order, json_each(shop_order.money, '$.taxLines') as tax
                where ${span} and placed_at >= ${from} and placed_at < ${until} and ${withTax}
                group by 1 order by ${firstMet}`.execute(db.kysely);
        for (const { name } of names.rows) taxNames.add(name);
        await setImmediate();
      }
      return { from, until, numbers, taxNames: [...taxNames] };
    },

    /**
     * The orders of an export, oldest first, each with its lines: `batch` at a time, each batch read after the last by
     * its number (never by an offset), so that an export of any size holds one batch in memory.
     */
    async *exportBatches({ from, until, numbers }: OrderExport, batch: number): AsyncGenerator<Order[]> {
      if (numbers === undefined) return;
      const { first, last } = numbers;
      for (let after = first - 1; ; ) {
        const rows = await db.kysely
          .selectFrom('shop_order')
          .selectAll()
          .where('number', '>', after)
          .where('number', '<=', last)
          .where('placed_at', '>=', from)
          .where('placed_at', '<', until)
          .orderBy('number')
          .limit(batch)
          .execute();
        const lastRow = rows.at(-1);
        if (!lastRow) return;
        const numbers = rows.map((row) => Number(row.number));
        const lines = await db.kysely
          .selectFrom('order_line')
          .selectAll()
          .where('order_number', 'in', numbers)
          .orderBy('order_number')
          .orderBy('position')
          .execute();
        const linesOf = new Map<number, OrderLineTable[]>();
        for (const line of lines) {
          const number = Number(line.order_number);
          const ofOrder = linesOf.get(number);
          if (ofOrder) ofOrder.push(line);
          else linesOf.set(number, [line]);
        }
        yield rows.map((row) => toOrder(row, linesOf.get(Number(row.number)) ?? [], [], true, cardPaymentMs));
        if (rows.length < batch) return;
        after = Number(lastRow.number);
      }
    },
  };
}
