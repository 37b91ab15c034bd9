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
  /**
   * `select k, <figures> from <rows> where <filter> group by k`, `k` the day (index in `bounds`) of each row's instant
   * `column`. SQLite joins the days as a table and reads each day's range of the index; PostgreSQL, whose planner
   * misjudges such a join of ranges (a year's report took seconds), reads the whole range once and finds each row's
   * day with `width_bucket` (docs/decisions/0066-reports-at-size.md).
   */
  async function perDay<Row>(
    bounds: DayBounds,
    column: string,
    figures: RawBuilder<unknown>,
    rows: RawBuilder<unknown>,
    filter: RawBuilder<unknown>,
  ): Promise<Row[]> {
    const instant = sql.raw(column);
    const query =
      db.dialect === 'postgres'
        ? sql<Row>`select width_bucket(${instant}, ${[...bounds]}::bigint[]) - 1 as k, ${figures} from ${rows}
            where ${instant} >= ${bounds[0]} and ${instant} < ${bounds.at(-1)} and ${filter} group by 1`
        : sql<Row>`with ${daysTable(bounds)} select d.k as k, ${figures} from days d, ${rows}
            where ${instant} >= d.s and ${instant} < d.e and ${filter} group by d.k`;
    return (await query.execute(db.kysely)).rows;
  }

  return {
    /**
     * Each day's figures: the orders placed on it that were not cancelled and those cancelled with a refund (counted
     * by the index on their instant, status and shipping), their lines (by the lines' own copy of the instant) less
     * those of the orders cancelled without a refund, and the refunds made on it.
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
      const refunded = sql`exists (select 1 from refund r where r.order_number = o.number)`;
      type Orders = { k: number; orders: unknown; shipping: unknown };
      type Lines = { k: number; gross: unknown; discount: unknown };
      const ordersOf = sql`count(*) as orders, sum(o.shipping_cents) as shipping`;
      const linesOf = sql`sum(l.price_cents) as gross, sum(l.discount_cents) as discount`;
      const [kept, cancelledPaid, lines, notSales, refunds] = await Promise.all([
        perDay<Orders>(bounds, 'o.placed_at', ordersOf, sql`shop_order o`, sql`o.status <> 'cancelled'`),
        perDay<Orders>(bounds, 'o.placed_at', ordersOf, sql`shop_order o`, sql`o.status = 'cancelled' and ${refunded}`),
        perDay<Lines>(bounds, 'l.placed_at', linesOf, sql`order_line l`, sql`1 = 1`),
        perDay<Lines>(
          bounds,
          'o.placed_at',
          linesOf,
          sql`shop_order o join order_line l on l.order_number = o.number`,
          sql`o.status = 'cancelled' and not ${refunded}`,
        ),
        perDay<{ k: number; refunds: unknown }>(
          bounds,
          'r.at',
          sql`sum(r.goods_cents - r.discount_cents) as refunds`,
          sql`refund r`,
          sql`1 = 1`,
        ),
      ]);
      for (const row of [...kept, ...cancelledPaid]) {
        at(row.k).orders += number(row.orders);
        at(row.k).shippingCents += number(row.shipping);
      }
      for (const row of lines) {
        at(row.k).grossCents += number(row.gross);
        at(row.k).discountCents += number(row.discount);
      }
      for (const row of notSales) {
        at(row.k).grossCents -= number(row.gross);
        at(row.k).discountCents -= number(row.discount);
      }
      for (const row of refunds) at(row.k).refundCents = number(row.refunds);
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
