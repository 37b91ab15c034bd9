// `npm run bench:reports`: the owner's report of a year (docs/product.md §26: within a second at 200,000 orders), on a
// big shop made before by `npm run demo-data` (BENCH_SHOP=file:/path/shop.db or postgres://…/name), on both databases.
// The shop is never changed: SQLite's file is copied first, PostgreSQL's database is copied as a template. With
// BENCH_COPIES=N the copy's orders (with their lines, documents and their tax lines, codes' uses and refunds) are written N more times
// under new numbers on the same days: a shop N+1 times as busy, for a figure at a size the demo fill had no time to
// reach (bench/README.md, "The owner's reports"). The year is the 366 days up to the day of the shop's last order.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { shopTime } from '../src/server/books/shop-time';
import type { Db } from '../src/server/db/database';
import { type OpenDatabase, openPostgres, openSqlite } from '../src/server/db/open';
import { createLogger } from '../src/server/log';
import { createReports } from '../src/server/reports/reports';
import { addDays, periodOf } from '../src/shared/reports';

const shop = process.env.BENCH_SHOP;
if (!shop) {
  console.error('Set BENCH_SHOP to a shop made by npm run demo-data (file:/path/shop.db or postgres://…/name).');
  process.exit(2);
}
const copies = Number(process.env.BENCH_COPIES ?? 0);
const runs = 5;
const timeZone = 'America/New_York';
const log = createLogger('silent');

/** The copy the bench runs on, and how to remove it. */
async function copyOf(url: string): Promise<{ opened: OpenDatabase; drop: () => Promise<void> }> {
  if (url.startsWith('file:')) {
    const folder = mkdtempSync(join(tmpdir(), 'bench-reports-'));
    copyFileSync(url.slice('file:'.length), join(folder, 'shop.db'));
    const opened = openSqlite(`file:${join(folder, 'shop.db')}`);
    return { opened, drop: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const target = new URL(url);
  const source = target.pathname.slice(1);
  const name = `${source}_bench_reports`;
  const admin = openPostgres(url, log);
  await sql`drop database if exists ${sql.id(name)}`.execute(admin.db);
  await sql`create database ${sql.id(name)} template ${sql.id(source)}`.execute(admin.db);
  target.pathname = `/${name}`;
  const opened = openPostgres(target.toString(), log);
  return {
    opened,
    drop: async () => {
      await opened.db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      await admin.db.destroy();
    },
  };
}

/** Each table's columns, and what a copy writes in those that must differ. */
const copied: [table: string, changed: Record<string, (offset: number, copy: number) => string>][] = [
  ['shop_order', { number: (o) => `number + ${o}`, idempotency_key: (_, c) => `idempotency_key || '-${c}'` }],
  ['order_line', { order_number: (o) => `order_number + ${o}` }],
  ['invoice', { number: (_, c) => `number || '-${c}'`, order_number: (o) => `order_number + ${o}` }],
  ['document_tax', { document: (_, c) => `document || '-${c}'` }],
  ['discount_use', { order_number: (o) => `order_number + ${o}`, email: (_, c) => `email || '-${c}'` }],
  ['refund', { order_number: (o) => `order_number + ${o}` }],
];

/** The rows of `table` that belong to the shop's own orders (numbered below `step`), not to a copy's. */
const originals = (table: string, step: number) =>
  table === 'shop_order'
    ? `number < ${step}`
    : table === 'document_tax'
      ? `document in (select number from invoice where order_number < ${step})`
      : `order_number < ${step}`;

async function inflate({ db, dialect }: OpenDatabase): Promise<void> {
  const { max } = await db
    .selectFrom('shop_order')
    .select((eb) => eb.fn.max('number').as('max'))
    .executeTakeFirstOrThrow();
  const step = Number(max) + 1;
  for (let copy = 1; copy <= copies; copy++) {
    for (const [table, changed] of copied) {
      const columns =
        dialect === 'sqlite'
          ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
          : await sql<{ name: string }>`select column_name as name from information_schema.columns
              where table_name = ${table} and table_schema = current_schema() order by ordinal_position`.execute(db);
      const names = columns.rows.map((column) => column.name);
      const values = names.map((name) => changed[name]?.(step * copy, copy) ?? name);
      await sql
        .raw(`insert into ${table} (${names.join(', ')}) select ${values.join(', ')} from ${table}
          where ${originals(table, step)}`)
        .execute(db);
    }
  }
  if (dialect === 'postgres') await sql`analyze`.execute(db);
}

const { opened, drop } = await copyOf(shop);
try {
  if (copies > 0) {
    const started = performance.now();
    await inflate(opened);
    console.log(`Copied the orders ${copies} more times in ${Math.round(performance.now() - started)} ms.`);
  }
  const db = { kysely: opened.db, dialect: opened.dialect } as unknown as Db;
  const { last } = await opened.db
    .selectFrom('shop_order')
    .select((eb) => eb.fn.max('placed_at').as('last'))
    .executeTakeFirstOrThrow();
  const to = shopTime(new Date(Number(last)).toISOString(), timeZone).slice(0, 10);
  const period = periodOf({ from: addDays(to, -365), to }, to);
  const reports = createReports(db);
  const reportShop = { timeZone, currency: 'USD', lowStock: 2 };
  const { orders } = await opened.db
    .selectFrom('shop_order')
    .select((eb) => eb.fn.countAll().as('orders'))
    .executeTakeFirstOrThrow();
  const times: number[] = [];
  let figures = (await reports.report(period, reportShop)).figures;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    figures = (await reports.report(period, reportShop)).figures;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      database: opened.dialect,
      ordersInShop: Number(orders),
      period: `${period.from} to ${period.to}`,
      ordersInPeriod: figures.orders,
      ms: { median: Math.round(times[Math.floor(runs / 2)] ?? 0), max: Math.round(times.at(-1) ?? 0) },
    }),
  );
} finally {
  await (opened.dialect === 'sqlite' ? opened.db.destroy() : Promise.resolve());
  await drop();
}
