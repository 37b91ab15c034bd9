import { sql } from 'kysely';
import { type Order, type OrderPage, type OrderStatus, orderNumberOf, orderNumberPrefix } from '../../shared/orders';
import type { Db } from '../db/database';
import { pageCount, rowsOfPage } from '../db/paging';
import type { OrderLineTable } from '../db/schema';
import { readOrder, toOrder, toSummary } from './order-mapping';

/** Which orders a list shows, and which page of them. */
export interface OrderFilter {
  /** Only the orders of this rider (the rider's own list); all orders for an owner. */
  uid?: string;
  status?: OrderStatus;
  /** An order number (`PF-10001` or `10001`) or part of an e-mail address. */
  search?: string;
  page: number;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Reading orders: one, a page of them, or the days of an export. */
export function createOrderQueries({ db, cardPaymentMs }: { db: Db; cardPaymentMs: number }) {
  return {
    /** One order; with `uid`, only if it is that rider's (another rider's number is simply not found). */
    get(number: number, { uid, forOwner = false }: { uid?: string; forOwner?: boolean }): Promise<Order | undefined> {
      return readOrder(db.kysely, number, { forOwner, cardPaymentMs, uid });
    },

    /** A page of orders, newest first. */
    async list({ uid, status, search, page }: OrderFilter): Promise<OrderPage> {
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
      const { count } = await query
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      const total = Number(count);
      const { limit, offset } = rowsOfPage(page);
      const rows = await query.selectAll().orderBy('number', 'desc').limit(limit).offset(offset).execute();
      return { orders: rows.map(toSummary), page, pages: pageCount(total), total };
    },

    /** Every order placed from `from` until before `until` (epoch ms), oldest first, each with its lines. */
    async placedBetween(from: number, until: number): Promise<Order[]> {
      const inRange = db.kysely.selectFrom('shop_order').where('placed_at', '>=', from).where('placed_at', '<', until);
      const rows = await inRange.selectAll().orderBy('number').execute();
      const lines = await db.kysely
        .selectFrom('order_line')
        .selectAll()
        .where('order_number', 'in', inRange.select('number'))
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
      return rows.map((row) => toOrder(row, linesOf.get(Number(row.number)) ?? [], [], true, cardPaymentMs));
    },
  };
}
