import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { shopAddressText } from '../../src/shared/address';
import { createTestSchema, testDatabaseUrl } from './postgres';
import { type Backend, backend as configuredBackend, startTestServer, type TestServer, testStock } from './server';

/** A throwaway database of the backend under test, readable by the test while a server runs on it. */
export interface TestDatabase {
  backend: Backend;
  /** DATABASE_URL for the server. */
  url: string;
  /** Runs SQL on it; write `$1`, `$2`... for parameters on either backend, and quote camelCase columns. */
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  /** Every table of the database (ours, Better Auth's, the migrators'). */
  tables(): Promise<string[]>;
  drop(): Promise<void>;
}

export async function createDatabase(backend: Backend = configuredBackend): Promise<TestDatabase> {
  if (backend === 'postgres') {
    const schema = await createTestSchema();
    return {
      backend,
      url: schema.url('reliability'),
      query: async <R>(text: string, values?: unknown[]) => (await schema.query(text, values)).rows as R[],
      async tables() {
        const rows = await schema.query<{ name: string }>(
          'select table_name as name from information_schema.tables where table_schema = $1 order by 1',
          [schema.schema],
        );
        return rows.rows.map((r) => r.name);
      },
      drop: () => schema.drop(),
    };
  }
  return sqliteDatabase(mkdtempSync(join(tmpdir(), 'piaffe-child-')));
}

/**
 * A throwaway copy of the SQLite database at `url` (`file:/path`, written whole: no WAL beside it), such as a big
 * shop `npm run demo-data` made once, for a bench to change as it likes.
 */
export function copyOfSqlite(url: string): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-copy-'));
  copyFileSync(url.replace(/^file:/, ''), join(dir, 'shop.db'));
  return sqliteDatabase(dir);
}

/**
 * A throwaway copy of the shop at `url`, made before by `npm run demo-data`: SQLite's file (`file:/path`) or
 * PostgreSQL's database (`postgres://…/name`), for a bench to run a server on and change as it likes.
 */
export function copyOfShop(url: string): Promise<TestDatabase> {
  return url.startsWith('file:') ? Promise.resolve(copyOfSqlite(url)) : postgresDatabase(url);
}

/**
 * A throwaway PostgreSQL database of its own, on the server of `template` (else of TEST_DATABASE_URL): empty (a new
 * shop once a server has started on it), or a copy of the database `template` names (`postgres://…/name`), such as a
 * big shop `npm run demo-data` made once, copied by PostgreSQL (`create database … template …`, which waits up to 5 s
 * for anyone connected to `template` to leave, then fails). Dropping it drops the database, whoever is connected.
 */
export async function postgresDatabase(template?: string): Promise<TestDatabase> {
  const on = (url: string, database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).toString();
  const server = template ?? testDatabaseUrl;
  const name = `piaffe_${template ? 'copy' : 'new'}_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: on(server, 'postgres') });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const source = template
    ? ` template ${pg.escapeIdentifier(decodeURIComponent(new URL(template).pathname.slice(1)))}`
    : '';
  await admin(`create database ${pg.escapeIdentifier(name)}${source}`);
  const url = on(server, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return {
    backend: 'postgres',
    url,
    query: async <R>(text: string, values?: unknown[]) => (await pool.query(text, values)).rows as R[],
    async tables() {
      const { rows } = await pool.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
      );
      return rows.map((r) => r.name);
    },
    async drop() {
      await pool.end();
      await admin(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    },
  };
}

/** The SQLite database `shop.db` in `dir` (made by the server if missing); dropping it removes `dir`. */
function sqliteDatabase(dir: string): TestDatabase {
  const file = join(dir, 'shop.db');
  const query = async <R>(text: string, values: unknown[] = []): Promise<R[]> => {
    // A connection per query: it sees everything committed so far, and holds no lock in between.
    const db = new SQLite(file, { fileMustExist: true });
    try {
      const statement = db.prepare(text.replace(/\$\d+/g, '?'));
      const params = values.map((v) => (v instanceof Date ? v.toISOString() : v));
      if (statement.reader) return statement.all(...params) as R[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  };
  return {
    backend: 'sqlite',
    url: `file:${file}`,
    query,
    async tables() {
      const rows = await query<{ name: string }>(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by 1",
      );
      return rows.map((r) => r.name);
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Sets every size's stock behind the server's back (no live page hears of it), for tests that run a server the
 * harness does not start (a child process) and must not run out of a size: a new shop has 5 of each.
 */
export async function stockUp(database: TestDatabase, count = testStock): Promise<void> {
  await database.query('update product_size set stock = $1', [count]);
}

/**
 * For the tests of one describe block: a server on a throwaway database that the test can read too, and another
 * program (a command line, a second writer) can open by its URL. Started before the block, removed after it.
 */
export function serverOnOwnDatabase(backend: Backend = configuredBackend): {
  readonly database: TestDatabase;
  readonly server: TestServer;
} {
  const parts = {} as { database: TestDatabase; server: TestServer };
  beforeAll(async () => {
    parts.database = await createDatabase(backend);
    parts.server = await startTestServer({ DATABASE_URL: parts.database.url });
  });
  afterAll(async () => {
    await parts.server?.stop();
    await parts.database?.drop();
  });
  return parts;
}

/**
 * The statements that take a shop back to before migration 0041 (returns) on `backend`: no returns or refunds, one
 * credit note per order, the settings without their returns and reports.
 */
/** The statements that take a shop back to before migration 0042 (the reports' columns). */
const undoReportColumnsStatements = [
  'drop table document_tax',
  'drop index product_size_stock',
  'drop index order_line_sales',
  'alter table order_line drop column placed_at',
  'drop index shop_order_sales',
  'alter table shop_order drop column shipping_cents',
  "delete from piaffe_migration where name = '0042-report-columns'",
];

/** Takes a stopped shop back to before migration 0042 (the reports' columns). */
export async function undoReportColumns(database: TestDatabase): Promise<void> {
  for (const statement of undoReportColumnsStatements) await database.query(statement);
}

function undoReturnsStatements(backend: TestDatabase['backend']): string[] {
  return [
    ...undoReportColumnsStatements,
    'drop table refund',
    'drop table return_line',
    'drop table return_request',
    'drop index invoice_of_return',
    'drop index invoice_order_kind',
    'alter table invoice drop column return_number',
    'create unique index invoice_order_kind on invoice (order_number, kind)',
    backend === 'sqlite'
      ? "update shop_settings set document = json_remove(document, '$.returns', '$.reports')"
      : "update shop_settings set document = (document::jsonb - 'returns' - 'reports')::text",
    "delete from piaffe_migration where name = '0041-returns'",
  ];
}

/** Takes a stopped shop back to before migration 0041 (returns), and so before 0042. */
export async function undoReturns(database: TestDatabase): Promise<void> {
  for (const statement of undoReturnsStatements(database.backend)) await database.query(statement);
}

/** The statements that take a shop back to before migration 0040 (money per line), and so before 0041: lines without shares. */
function undoMoneyPerLineStatements(backend: TestDatabase['backend']): string[] {
  return [
    ...undoReturnsStatements(backend),
    'alter table order_line drop column discount_cents',
    'alter table order_line drop column tax_cents',
    "delete from piaffe_migration where name = '0040-money-per-line'",
  ];
}

/** Takes a stopped shop back to before migration 0040 (money per line): its order lines without their shares. */
export async function undoMoneyPerLine(database: TestDatabase): Promise<void> {
  for (const statement of undoMoneyPerLineStatements(database.backend)) await database.query(statement);
}

/** The statements that take a shop back to before migration 0039 (back in stock), and so before 0040: no waits. */
const undoBackInStock = (backend: TestDatabase['backend']) => [
  ...undoMoneyPerLineStatements(backend),
  'drop table stock_wait',
  "delete from piaffe_migration where name = '0039-back-in-stock'",
];

/**
 * The statements that take a SQLite shop back to before migration 0038, and so before 0039: no visitors' carts (their
 * rows go), `cart_item` as it was, the settings without 'Who can see the shop'. (The backup tests run them on a file
 * of their own.)
 */
export const undoOpenToVisitorsOnSqlite = [
  ...undoBackInStock('sqlite'),
  `create table cart_item_old (id text primary key, uid text not null references user(id) on delete cascade,
    itemid text not null, name text not null, price_cents integer not null, details text not null,
    created_at bigint not null, size text)`,
  `insert into cart_item_old select id, uid, itemid, name, price_cents, details, created_at, size from cart_item
    where uid is not null`,
  'drop table cart_item',
  'alter table cart_item_old rename to cart_item',
  'create index cart_item_uid_created_at on cart_item (uid, created_at)',
  'drop table visitor_cart',
  "update shop_settings set document = json_remove(document, '$.access')",
  "delete from piaffe_migration where name = '0038-open-to-visitors'",
];

/** Takes a stopped shop back to before migration 0038 (open to visitors), and so before 0039: see `undoOpenToVisitorsOnSqlite`. */
export async function undoOpenToVisitors(database: TestDatabase): Promise<void> {
  if (database.backend === 'sqlite') {
    for (const statement of undoOpenToVisitorsOnSqlite) await database.query(statement);
    return;
  }
  for (const statement of undoBackInStock('postgres')) await database.query(statement);
  await database.query('delete from cart_item where uid is null');
  await database.query('alter table cart_item drop column visitor_cart_id');
  await database.query('alter table cart_item alter column uid set not null');
  await database.query('drop table visitor_cart');
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const { access: _, ...document } = JSON.parse(row?.document ?? '{}');
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  await database.query("delete from piaffe_migration where name = '0038-open-to-visitors'");
}

/** Takes a stopped shop back to before migration 0037, and so before 0038: on PostgreSQL, its amounts of money in 32-bit integers again. */
export async function undoMoneyIn64Bits(database: TestDatabase): Promise<void> {
  await undoOpenToVisitors(database);
  if (database.backend === 'postgres') {
    for (const [table, column] of [
      ['product', 'price_cents'],
      ['cart_item', 'price_cents'],
      ['shop_order', 'total_cents'],
      ['order_line', 'price_cents'],
      ['discount_code', 'value'],
      ['discount_code', 'min_subtotal_cents'],
    ]) {
      await database.query(`alter table ${table} alter column ${column} type integer`);
    }
  }
  await database.query("delete from piaffe_migration where name = '0037-money-in-64-bits'");
}

/** Takes a stopped shop back to before migration 0036, and so before 0037: its settings without their currency, locale and time zone. */
export async function undoShopFormat(database: TestDatabase): Promise<void> {
  await undoMoneyIn64Bits(database);
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const { format: _, ...document } = JSON.parse(row?.document ?? '{}');
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  await database.query("delete from piaffe_migration where name = '0036-shop-format'");
}

/**
 * Takes a stopped shop back to before migration 0035 (unpaid bank transfers), and so before 0036: its orders without
 * their last day to pay, its settings without 'Cancel unpaid orders'.
 */
export async function undoUnpaidBankTransfers(database: TestDatabase): Promise<void> {
  await undoShopFormat(database);
  await database.query('alter table shop_order drop column pay_by');
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const document = JSON.parse(row?.document ?? '{}');
  const { cancelUnpaid: _, ...bankTransfer } = document.bankTransfer ?? {};
  await database.query('update shop_settings set document = $1 where id = 1', [
    JSON.stringify({ ...document, bankTransfer }),
  ]);
  await database.query("delete from piaffe_migration where name = '0035-unpaid-bank-transfers'");
}

/**
 * Takes a stopped shop back to before migration 0034, and so before 0035: the shop's address one line of text again,
 * `text` (by default its parts as they print).
 */
export async function undoShopAddressInParts(database: TestDatabase, text?: string): Promise<void> {
  await undoUnpaidBankTransfers(database);
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const document = JSON.parse(row?.document ?? '{}');
  document.shop.address = text ?? shopAddressText(document.shop.address, 'en-US');
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  await database.query("delete from piaffe_migration where name = '0034-shop-address-in-parts'");
}

/**
 * Takes a stopped shop back to before migration 0033: on SQLite, the orders without their index of numbers alone; and
 * so before 0034.
 */
export async function undoOrdersByNumber(database: TestDatabase): Promise<void> {
  await undoShopAddressInParts(database);
  if (database.backend === 'sqlite') await database.query('drop index shop_order_number');
  await database.query("delete from piaffe_migration where name = '0033-orders-by-number'");
}

/**
 * Takes a stopped shop back to before migration 0031: on PostgreSQL, the search's GIN indexes with their pending list
 * again (fastupdate, PostgreSQL's default); and so before 0033.
 */
export async function undoSearchIndexWithoutPendingList(database: TestDatabase): Promise<void> {
  await undoOrdersByNumber(database);
  if (database.backend === 'postgres') {
    for (const index of ['product_search_body', 'search_word_trigrams']) {
      await database.query(`alter index ${index} set (fastupdate = on)`);
    }
  }
  await database.query("delete from piaffe_migration where name = '0031-search-index-without-pending-list'");
}

/** Takes a stopped shop back to before migration 0025 (tax settings): its settings without their tax section. */
export async function undoTaxSettings(database: TestDatabase): Promise<void> {
  await undoSearchIndexWithoutPendingList(database);
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const { tax: _, ...document } = JSON.parse(row?.document ?? '{}');
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  await database.query("delete from piaffe_migration where name = '0025-tax-settings'");
}

/** Takes a stopped shop back to before migration 0023 (shipping zones), and so before 0025. */
export async function undoShippingZones(database: TestDatabase): Promise<void> {
  await undoTaxSettings(database);
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const { shipping: _, ...document } = JSON.parse(row?.document ?? '{}');
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  await database.query("delete from piaffe_migration where name = '0023-shipping-zones'");
}

/** Takes a stopped shop back to before migration 0021 (discount codes), and so before 0023. */
export async function undoDiscountCodes(database: TestDatabase): Promise<void> {
  await undoShippingZones(database);
  for (const table of ['discount_use', 'discount_code']) await database.query(`drop table ${table}`);
  await database.query("delete from piaffe_migration where name = '0021-discount-codes'");
}

/**
 * Takes a stopped shop back to before migration 0019 (invoices): no documents, and no counters of a year's; and so
 * before 0021.
 */
export async function undoInvoices(database: TestDatabase): Promise<void> {
  await undoDiscountCodes(database);
  await database.query('drop table invoice');
  await database.query("delete from counter where name <> 'order_number'");
  await database.query("delete from piaffe_migration where name = '0019-invoices'");
}

/** The statements that take a stopped shop back to before migration 0017 (categories, slugs, search index...). */
export function undoFindingStatements(backend: Backend): string[] {
  return [
    'drop table product_search',
    ...(backend === 'sqlite' ? ['drop table search_variant'] : []),
    'drop table search_word',
    'drop table product_picture',
    'drop table product_category',
    'drop table category',
    'drop table product_slug',
    'drop index product_slug_unique',
    'drop index product_shown_position',
    'drop index product_size_size',
    'alter table product drop column slug',
    'alter table product drop column size_guide',
    "delete from piaffe_migration where name = '0017-finding-products'",
  ];
}

/** Takes a stopped shop back to before migration 0017 (finding products), and so before 0019. */
export async function undoFinding(database: TestDatabase): Promise<void> {
  await undoInvoices(database);
  for (const statement of undoFindingStatements(database.backend)) await database.query(statement);
}

/** Takes a stopped shop back to before migration 0016 (products' weights), and so before 0017. */
export async function undoProductWeights(database: TestDatabase): Promise<void> {
  await undoFinding(database);
  await database.query('alter table product drop column weight_grams');
  await database.query("delete from piaffe_migration where name = '0016-product-weights'");
}

/** Takes a stopped shop back to before migration 0015 (the shop's settings in the database), and so before 0016. */
export async function undoShopSettings(database: TestDatabase): Promise<void> {
  await undoProductWeights(database);
  for (const table of ['settings_change', 'shop_settings']) await database.query(`drop table ${table}`);
  await database.query("delete from piaffe_migration where name = '0015-shop-settings'");
}

/** Takes a stopped shop back to before migration 0014 (outbox attachments), and so before 0015. */
export async function undoOutboxAttachments(database: TestDatabase): Promise<void> {
  await undoShopSettings(database);
  for (const column of ['attachment_name', 'attachment_type', 'attachment_bytes']) {
    await database.query(`alter table outbox drop column ${column}`);
  }
  await database.query("delete from piaffe_migration where name = '0014-outbox-attachments'");
}

/**
 * Takes a stopped shop back to before migration 0013 (gapless counters), and so before 0014: on PostgreSQL, order
 * numbers from a sequence that starts after the last number given.
 */
export async function undoGaplessCounters(database: TestDatabase): Promise<void> {
  await undoOutboxAttachments(database);
  if (database.backend === 'postgres') {
    const [row] = await database.query<{ value: number }>("select value from counter where name = 'order_number'");
    await database.query(`create sequence order_number start with ${Number(row?.value) + 1}`);
    await database.query('drop table counter');
  }
  await database.query("delete from piaffe_migration where name = '0013-gapless-counters'");
}

/**
 * Takes a stopped shop's orders back to before migration 0012 (an order's money in one value, its delivery its own),
 * and so before 0013: the subtotal and the shipping in columns of their own, as the orders given had them.
 */
export async function undoOrderMoney(
  database: TestDatabase,
  orders: readonly { number: string; money: { subtotalCents: number; shippingCents: number } }[],
): Promise<void> {
  await undoGaplessCounters(database);
  await database.query('alter table shop_order add column subtotal_cents integer');
  await database.query('alter table shop_order add column shipping_cents integer');
  for (const order of orders) {
    await database.query('update shop_order set subtotal_cents = $1, shipping_cents = $2 where number = $3', [
      order.money.subtotalCents,
      order.money.shippingCents,
      Number(order.number.replace(/^\D+/, '')),
    ]);
  }
  await database.query('alter table shop_order drop column money');
  await database.query('alter table shop_order drop column delivery');
  await database.query("delete from piaffe_migration where name = '0012-order-money-and-delivery'");
}
