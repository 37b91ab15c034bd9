import { type RawBuilder, sql } from 'kysely';
import { bestListed, lowStockListed, type ReportItem } from '../../shared/reports';
import type { Db } from '../db/database';

/**
 * The database's side of the owner's reports (docs/product.md §26, docs/decisions/0065-reports.md): every figure an
 * aggregate the database makes from indexes alone, over the copies migration 0042 keeps beside the rows (an order's
 * shipping, a line's order instant, a document's tax lines: docs/decisions/0066-reports-at-size.md), never the
 * orders read one by one here.
 */
/** Days as the queries take them: the first instant of each and the end of the last, epoch ms, in order. */
export type DayBounds = readonly number[];

/** What the days' orders and refunds add up to, day by day (index `k` of the bounds). */
export interface DayFigures {
  orders: number;
  grossCents: number;
  discountCents: number;
  shippingCents: number;
  refundCents: number;
}

export interface TaxRow {
  name: string;
  country: string;
  region: string;
  amountCents: number;
}

export interface SoldItems {
  products: { byUnits: ReportItem[]; byNet: ReportItem[] };
  sizes: { byUnits: ReportItem[]; byNet: ReportItem[] };
  low: { itemid: string; name: string; size: string; left: number; units: number }[];
}

/**
 * An order counts in the sales of its day unless it was cancelled without a refund (never paid): a cancelled paid
 * order counts on its day and its refund on the cancel's.
 */
const counted = sql`(o.status <> 'cancelled' or exists (select 1 from refund r where r.order_number = o.number))`;

/** The days as a table `days(k, s, e)`: whole numbers the code made, written into the statement. */
function daysTable(bounds: DayBounds): RawBuilder<unknown> {
  const rows = bounds.slice(0, -1).map((start, k) => `(${k}, ${start}, ${bounds[k + 1]})`);
  return sql.raw(`days(k, s, e) as (values ${rows.join(', ')})`);
}

const number = (value: unknown) => Number(value ?? 0);

export function createReportQueries(db: Db) {
  return {
    /**
     * Each day's figures: the orders placed on it (counted by the index on their instant, status and shipping), their
     * lines (by the lines' own copy of the instant), less the lines of the orders that were no sale, and the refunds
     * made on it.
     */
    async days(bounds: DayBounds): Promise<DayFigures[]> {
      const figures = bounds.slice(0, -1).map(() => ({
        orders: 0,
        grossCents: 0,
        discountCents: 0,
        shippingCents: 0,
        refundCents: 0,
      }));
      const at = (k: unknown) => figures[Number(k)] as DayFigures;
      const days = daysTable(bounds);
      const [orders, lines, notSales, refunds] = await Promise.all([
        sql<{ k: number; orders: unknown; shipping: unknown }>`with ${days}
          select d.k as k, count(*) as orders, sum(o.shipping_cents) as shipping
          from days d join shop_order o on o.placed_at >= d.s and o.placed_at < d.e
          where ${counted} group by d.k`.execute(db.kysely),
        sql<{ k: number; gross: unknown; discount: unknown }>`with ${days}
          select d.k as k, sum(l.price_cents) as gross, sum(l.discount_cents) as discount
          from days d join order_line l on l.placed_at >= d.s and l.placed_at < d.e group by d.k`.execute(db.kysely),
        sql<{ k: number; gross: unknown; discount: unknown }>`with ${days}
          select d.k as k, sum(l.price_cents) as gross, sum(l.discount_cents) as discount
          from days d join shop_order o on o.placed_at >= d.s and o.placed_at < d.e
            join order_line l on l.order_number = o.number
          where not ${counted} group by d.k`.execute(db.kysely),
        sql<{ k: number; refunds: unknown }>`with ${days}
          select d.k as k, sum(r.goods_cents - r.discount_cents) as refunds
          from days d join refund r on r.at >= d.s and r.at < d.e group by d.k`.execute(db.kysely),
      ]);
      for (const row of orders.rows) {
        at(row.k).orders = number(row.orders);
        at(row.k).shippingCents = number(row.shipping);
      }
      for (const row of lines.rows) {
        at(row.k).grossCents += number(row.gross);
        at(row.k).discountCents += number(row.discount);
      }
      for (const row of notSales.rows) {
        at(row.k).grossCents -= number(row.gross);
        at(row.k).discountCents -= number(row.discount);
      }
      for (const row of refunds.rows) at(row.k).refundCents = number(row.refunds);
      return figures;
    },

    /**
     * The tax lines of the documents issued from `from` until before `until`, credit notes' negative, by name and by
     * the order's place: the rows each document wrote beside it (`document_tax`), read from their index alone.
     */
    async tax(from: number, until: number): Promise<TaxRow[]> {
      const rows = await sql<TaxRow>`select name, country, region, sum(amount_cents) as "amountCents"
        from document_tax where issued_at >= ${from} and issued_at < ${until}
        group by name, country, region order by name, country, region`.execute(db.kysely);
      return rows.rows.map((row) => ({ ...row, amountCents: number(row.amountCents) }));
    },

    /** What discount codes took off the goods of the orders placed from `from` until before `until`, by code. */
    async discounts(from: number, until: number) {
      const rows = await sql<{ code: string; kind: string; orders: unknown; taken: unknown }>`
        select c.code as code, c.kind as kind, count(distinct o.number) as orders, sum(l.discount_cents) as taken
        from shop_order o join discount_use u on u.order_number = o.number
          join discount_code c on c.id = u.discount_id
          join order_line l on l.order_number = o.number
        where o.placed_at >= ${from} and o.placed_at < ${until} and ${counted}
        group by c.id, c.code, c.kind order by 4 desc, 3 desc, 1`.execute(db.kysely);
      return rows.rows.map(({ code, kind, orders, taken }) => ({
        code,
        kind,
        orders: number(orders),
        takenCents: number(taken),
      }));
    },

    /**
     * The best products and sizes of the orders placed from `from` until before `until`, by units and by net sales
     * (price less discount), and the sizes of shown products at or below `lowStock` with what they sold, each product
     * by its name now. Lines of cancelled orders, and lines a return refunded, are not sales: the period's lines are
     * one range of their index, and those few are taken off after.
     */
    async sold(from: number, until: number, lowStock: number): Promise<SoldItems> {
      const top = (by: string) => sql.raw(`order by ${by} limit ${bestListed}`);
      const rows = await sql<{
        list: string;
        itemid: string;
        name: string;
        size: string | null;
        units: unknown;
        net: unknown;
        stock: unknown;
      }>`with s as materialized (
          select itemid, size_key, max(size) as size, sum(units) as units, sum(net) as net from (
            select l.itemid as itemid, l.size_key as size_key, l.size as size, 1 as units,
              l.price_cents - l.discount_cents as net
            from order_line l where l.placed_at >= ${from} and l.placed_at < ${until}
            union all
            select l.itemid, l.size_key, null, -1, l.discount_cents - l.price_cents
            from shop_order o join order_line l on l.order_number = o.number
            where o.placed_at >= ${from} and o.placed_at < ${until} and o.status = 'cancelled'
            union all
            select l.itemid, l.size_key, null, -1, l.discount_cents - l.price_cents
            from return_request rr join return_line rl on rl.return_number = rr.number
              join order_line l on l.order_number = rl.order_number and l.position = rl.position
              join shop_order o on o.number = l.order_number
            where rr.state = 'refunded' and rl.active = 1 and rl.outcome = 'refund'
              and l.placed_at >= ${from} and l.placed_at < ${until} and o.status <> 'cancelled'
          ) lines group by itemid, size_key having sum(units) > 0
        ), p as (
          select itemid, sum(units) as units, sum(net) as net from s group by itemid
        ), best as (
          select * from (select 'sizes-units' as list, itemid, size, units, net, cast(null as integer) as stock,
            row_number() over (order by units desc, net desc, itemid, size) as place
            from s ${top('units desc, net desc, itemid, size')}) a
          union all select * from (select 'sizes-net', itemid, size, units, net, cast(null as integer),
            row_number() over (order by net desc, units desc, itemid, size)
            from s ${top('net desc, units desc, itemid, size')}) b
          union all select * from (select 'products-units', itemid, cast(null as text), units, net, cast(null as integer),
            row_number() over (order by units desc, net desc, itemid)
            from p ${top('units desc, net desc, itemid')}) c
          union all select * from (select 'products-net', itemid, cast(null as text), units, net, cast(null as integer),
            row_number() over (order by net desc, units desc, itemid)
            from p ${top('net desc, units desc, itemid')}) d
          union all select * from (select 'low', z.itemid, z.size, coalesce(s.units, 0), 0, z.stock,
            row_number() over (order by case when s.units is null then 1 else 0 end, z.stock * 1.0 / s.units, z.stock,
              z.itemid, z.size)
            from product_size z join product pr on pr.itemid = z.itemid
              left join s on s.itemid = z.itemid and s.size_key = z.key
            where z.stock <= ${lowStock} and pr.shown = 1
            order by case when s.units is null then 1 else 0 end, z.stock * 1.0 / s.units, z.stock, z.itemid, z.size
            limit ${lowStockListed}) e
        )
        select best.list as list, best.itemid as itemid, pr.name as name, best.size as size, best.units as units,
          best.net as net, best.stock as stock
        from best join product pr on pr.itemid = best.itemid order by best.list, best.place`.execute(db.kysely);
      const items = (list: string): ReportItem[] =>
        rows.rows
          .filter((row) => row.list === list)
          .map(({ itemid, name, size, units, net }) => ({
            itemid,
            name,
            size,
            units: number(units),
            netCents: number(net),
          }));
      return {
        products: { byUnits: items('products-units'), byNet: items('products-net') },
        sizes: { byUnits: items('sizes-units'), byNet: items('sizes-net') },
        low: rows.rows
          .filter((row) => row.list === 'low')
          .map(({ itemid, name, size, units, stock }) => ({
            itemid,
            name,
            size: size ?? '',
            left: number(stock),
            units: number(units),
          })),
      };
    },

    /** How many sizes of shown products are at or below `lowStock`. */
    async lowStockCount(lowStock: number): Promise<number> {
      const row = await sql<{ n: unknown }>`select count(*) as n from product_size z
        join product pr on pr.itemid = z.itemid where z.stock <= ${lowStock} and pr.shown = 1`.execute(db.kysely);
      return number(row.rows[0]?.n);
    },
  };
}

export type ReportQueries = ReturnType<typeof createReportQueries>;
