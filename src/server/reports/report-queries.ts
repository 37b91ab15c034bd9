import { type RawBuilder, sql } from 'kysely';
import { bestListed, lowStockListed, type ReportItem } from '../../shared/reports';
import type { Db } from '../db/database';

/**
 * The database's side of the owner's reports (docs/product.md §26, docs/decisions/0065-reports.md): every figure an
 * aggregate the database makes over indexed columns (an order's day by `placed_at`, a refund's by `at`, a document's
 * by `month` and `issued_at`), never the orders read one by one here.
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
  const shipping =
    db.dialect === 'postgres'
      ? sql`(o.money::json ->> 'shippingCents')::bigint`
      : sql`json_extract(o.money, '$.shippingCents')`;

  return {
    /** Each day's figures, from the orders placed on it and the refunds made on it. */
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
      const orders = await sql<{ k: number; orders: unknown; shipping: unknown }>`with ${days}
        select d.k as k, count(*) as orders, sum(${shipping}) as shipping
        from days d join shop_order o on o.placed_at >= d.s and o.placed_at < d.e
        where ${counted} group by d.k`.execute(db.kysely);
      for (const row of orders.rows) {
        at(row.k).orders = number(row.orders);
        at(row.k).shippingCents = number(row.shipping);
      }
      const goods = await sql<{ k: number; gross: unknown; discount: unknown }>`with ${days}
        select d.k as k, sum(l.price_cents) as gross, sum(l.discount_cents) as discount
        from days d join shop_order o on o.placed_at >= d.s and o.placed_at < d.e
          join order_line l on l.order_number = o.number
        where ${counted} group by d.k`.execute(db.kysely);
      for (const row of goods.rows) {
        at(row.k).grossCents = number(row.gross);
        at(row.k).discountCents = number(row.discount);
      }
      const refunds = await sql<{ k: number; refunds: unknown }>`with ${days}
        select d.k as k, sum(r.goods_cents - r.discount_cents) as refunds
        from days d join refund r on r.at >= d.s and r.at < d.e group by d.k`.execute(db.kysely);
      for (const row of refunds.rows) at(row.k).refundCents = number(row.refunds);
      return figures;
    },

    /**
     * The tax lines of the documents issued from `from` until before `until` (in the shop's `months`, which the index
     * of documents is by), credit notes' negative, by name and by the order's place. Only documents that name a tax
     * line are read as JSON; the others cost a LIKE.
     */
    async tax(from: number, until: number, months: readonly string[]): Promise<TaxRow[]> {
      const where = sql`i.month in (${sql.join(months)}) and i.issued_at >= ${from} and i.issued_at < ${until}
        and i.record like '%"taxLines"%'`;
      const rows =
        db.dialect === 'postgres'
          ? await sql<TaxRow>`select t.line ->> 'name' as name, o.country as country, o.region as region,
                sum((t.line ->> 'amountCents')::bigint) as "amountCents"
              from invoice i join shop_order o on o.number = i.order_number,
                json_array_elements(i.record::json -> 'money' -> 'taxLines') as t(line)
              where ${where} group by 1, 2, 3 order by 1, 2, 3`.execute(db.kysely)
          : await sql<TaxRow>`select json_extract(t.value, '$.name') as name, o.country as country,
                o.region as region, sum(json_extract(t.value, '$.amountCents')) as amountCents
              from invoice i join shop_order o on o.number = i.order_number,
                json_each(i.record, '$.money.taxLines') as t
              where ${where} group by 1, 2, 3 order by 1, 2, 3`.execute(db.kysely);
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
     * (price less discount), and the sizes of shown products at or below `lowStock` with what they sold. Lines of
     * cancelled orders, and lines a return refunded, are not sales.
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
          select l.itemid as itemid, l.size_key as size_key, max(l.size) as size, max(l.name) as name,
            count(*) as units, sum(l.price_cents - l.discount_cents) as net
          from shop_order o join order_line l on l.order_number = o.number
          where o.placed_at >= ${from} and o.placed_at < ${until} and o.status <> 'cancelled'
            and not exists (select 1 from return_line rl join return_request rr on rr.number = rl.return_number
              where rl.order_number = l.order_number and rl.position = l.position and rl.active = 1
                and rl.outcome = 'refund' and rr.state = 'refunded')
          group by l.itemid, l.size_key
        ), p as (
          select itemid, max(name) as name, sum(units) as units, sum(net) as net from s group by itemid
        )
        select * from (select 'sizes-units' as list, itemid, name, size, units, net, cast(null as integer) as stock
          from s ${top('units desc, net desc, itemid, size')}) a
        union all select * from (select 'sizes-net', itemid, name, size, units, net, cast(null as integer)
          from s ${top('net desc, units desc, itemid, size')}) b
        union all select * from (select 'products-units', itemid, name, cast(null as text), units, net, cast(null as integer)
          from p ${top('units desc, net desc, itemid')}) c
        union all select * from (select 'products-net', itemid, name, cast(null as text), units, net, cast(null as integer)
          from p ${top('net desc, units desc, itemid')}) d
        union all select * from (select 'low', z.itemid, pr.name, z.size, coalesce(s.units, 0), 0, z.stock
          from product_size z join product pr on pr.itemid = z.itemid
            left join s on s.itemid = z.itemid and s.size_key = z.key
          where z.stock <= ${lowStock} and pr.shown = 1
          order by case when s.units is null then 1 else 0 end, z.stock * 1.0 / s.units, z.stock, z.itemid, z.size
          limit ${lowStockListed}) e`.execute(db.kysely);
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
