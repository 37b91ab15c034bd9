import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Mailbox } from '../../scripts/mailbox';
import { sessionsTopic } from '../../src/server/auth/sessions';
import { type Config, loadConfig } from '../../src/server/config';
import type { UnitOfWork } from '../../src/server/db/database';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { createLogger, type Logger } from '../../src/server/log';
import { isLoopbackHost } from '../../src/server/mail/local-mailbox';
import { createOutbox, type Outbox } from '../../src/server/mail/outbox';
import { createSeal } from '../../src/server/mail/seal';
import { type RunningServer, startServer } from '../../src/server/server';
import { createSettingsStore } from '../../src/server/settings/settings-store';
import { createStockStore, type StockStore } from '../../src/server/stock/stock-store';
import { publicShopOf } from '../../src/shared/settings';
import { testMailbox } from './client';
import { createTestSchema, type TestSchema } from './postgres';

export type Backend = 'sqlite' | 'postgres';
export const backend: Backend = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestServer extends RunningServer {
  /**
   * Where the shop's e-mails arrive over SMTP: a mailbox the test server starts, unless the test named its own
   * SMTP_URL (then undefined; the test reads its own mailbox) or asked for none (`mailbox: false`).
   */
  mailbox: Mailbox | undefined;
  /** With `captureLog`: every line the server logged, as written. */
  logLines: string[];
  /** Makes every session of the user look as if it had been created `minutes` ago. */
  ageSessions(uid: string, minutes: number): Promise<void>;
  /** Row counts of every table that may hold the user's data, by table. */
  rowsOf(uid: string, email: string): Promise<Record<string, number>>;
  /** The shop's stock, changed as the owner's command line does (the change reaches the live pages). */
  stock: StockStore;
  stop(): Promise<void>;
}

/**
 * The stock of every size in a test shop, unless `seededStock`: enough that tests of other things never run out
 * (a new shop has 5 of a size, 2 of a saddle's).
 */
export const testStock = 1000;

export interface TestServerOptions {
  /**
   * PostgreSQL only: run on this schema, shared with other servers, instead of a fresh one; the caller
   * then drops it. `name` tells the servers' connections apart in pg_stat_activity.application_name.
   */
  schema?: TestSchema;
  name?: string;
  /** Keeps the server's log lines (at LOG_LEVEL, `debug` unless the env says otherwise) in `logLines`. */
  captureLog?: boolean;
  /** Keeps the stock a new shop starts with (docs/product.md §12) rather than `testStock` of every size. */
  seededStock?: boolean;
  /** false: no mailbox of its own, so that e-mails wait in the outbox (unless the test gives SMTP_URL). */
  mailbox?: boolean;
}

/** The server's logger: the default one, or one that keeps its lines in `lines`. */
function testLogger(config: Config, lines: string[], capture: boolean): Logger | undefined {
  if (!capture) return undefined;
  return createLogger(config.logLevel, { write: (line: string) => void lines.push(line) });
}

const secret = 'test-secret-0123456789abcdef0123456789';

/**
 * The tests' cheaper password hashing (PASSWORD_HASH_COST and PIAFFE_TEST, set by vitest.config.ts for the server
 * projects; child processes inherit them), for a shop whose PUBLIC_URL is on this machine or unset. A shop on a public
 * one refuses a cost below the default (docs/decisions/0056), so it hashes at the default.
 */
export function testPasswordHashing(env: Record<string, string | undefined>): Record<string, string> {
  const { PASSWORD_HASH_COST: cost, PIAFFE_TEST: test } = process.env;
  if (!cost || test !== '1') return {};
  if (env.PUBLIC_URL !== undefined && !isLoopbackHost(new URL(env.PUBLIC_URL).hostname)) return {};
  return { PASSWORD_HASH_COST: cost, PIAFFE_TEST: test };
}

/** The outbox of a test server's database, as the server itself writes to it (sealing with its AUTH_SECRET). */
export function outboxOf(server: RunningServer): Outbox {
  const settings = createSettingsStore(server.db);
  const shop = async (uow: UnitOfWork) => publicShopOf(await settings.current(uow));
  return createOutbox(server.db, { publicUrl: server.url, shop }, createSeal(secret));
}

/** Starts the real server on an ephemeral port with a throwaway database of the backend under test. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const mailbox = env.SMTP_URL === undefined && options.mailbox !== false ? await testMailbox() : undefined;
  const withMail = mailbox ? { ...env, SMTP_URL: mailbox.url } : env;
  let server: Omit<TestServer, 'stock' | 'mailbox'>;
  try {
    server = await (backend === 'postgres' || options.schema
      ? startOnPostgres(withMail, options)
      : startOnSqlite(withMail, options));
  } catch (error) {
    await mailbox?.close();
    throw error;
  }
  // As the owner's command line: a raise ends the waits for the size, with their e-mails (docs/decisions/0058).
  const stock = createStockStore(server.db, outboxOf(server));
  if (!options.seededStock) await stock.set(testStock);
  return {
    ...server,
    stock,
    mailbox,
    async stop() {
      await server.stop();
      await mailbox?.close();
    },
  };
}

async function startOnSqlite(
  env: Record<string, string>,
  options: TestServerOptions,
): Promise<Omit<TestServer, 'stock' | 'mailbox'>> {
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-test-'));
  const file = join(dir, 'shop.db');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${file}`,
    AUTH_SECRET: secret,
    LOG_LEVEL: options.captureLog ? 'debug' : (process.env.LOG_LEVEL ?? 'info'),
    ...testPasswordHashing(env),
    ...env,
  });
  const logLines: string[] = [];
  const server = await startServer(config, testLogger(config, logLines, options.captureLog ?? false));
  const raw = () => new SQLite(file);
  return {
    ...server,
    logLines,
    async ageSessions(uid, minutes) {
      const db = raw();
      db.prepare('update session set createdAt = ? where userId = ?').run(
        new Date(Date.now() - minutes * 60_000).toISOString(),
        uid,
      );
      db.close();
      await announceSessionChange(server, uid);
    },
    async rowsOf(uid, email) {
      const db = raw();
      const count = (query: string, ...args: string[]) => (db.prepare(query).get(...args) as { n: number }).n;
      const rows = {
        user: count('select count(*) as n from user where id = ? or email = ?', uid, email),
        session: count('select count(*) as n from session where userId = ?', uid),
        account: count('select count(*) as n from account where userId = ?', uid),
        cart_item: count('select count(*) as n from cart_item where uid = ?', uid),
        login_attempt: count('select count(*) as n from login_attempt where key = ?', `email:${email}`),
        passkey: count('select count(*) as n from passkey where userId = ?', uid),
      };
      db.close();
      return rows;
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startOnPostgres(
  env: Record<string, string>,
  options: TestServerOptions,
): Promise<Omit<TestServer, 'stock' | 'mailbox'>> {
  const owned = !options.schema;
  const schema = options.schema ?? (await createTestSchema());
  const logLines: string[] = [];
  let server: RunningServer;
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: schema.url(options.name),
      AUTH_SECRET: secret,
      LOG_LEVEL: options.captureLog ? 'debug' : (process.env.LOG_LEVEL ?? 'info'),
      ...testPasswordHashing(env),
      ...env,
    });
    server = await startServer(config, testLogger(config, logLines, options.captureLog ?? false));
  } catch (error) {
    if (owned) await schema.drop();
    throw error;
  }
  const count = async (query: string, ...args: string[]) =>
    (await schema.query<{ n: number }>(query, args)).rows[0]?.n ?? 0;
  return {
    ...server,
    logLines,
    async ageSessions(uid, minutes) {
      // Better Auth's columns are camelCase, so they are quoted on PostgreSQL.
      await schema.query('update session set "createdAt" = $1 where "userId" = $2', [
        new Date(Date.now() - minutes * 60_000),
        uid,
      ]);
      await announceSessionChange(server, uid);
    },
    async rowsOf(uid, email) {
      return {
        user: await count('select count(*)::int as n from "user" where id = $1 or email = $2', uid, email),
        session: await count('select count(*)::int as n from session where "userId" = $1', uid),
        account: await count('select count(*)::int as n from account where "userId" = $1', uid),
        cart_item: await count('select count(*)::int as n from cart_item where uid = $1', uid),
        login_attempt: await count('select count(*)::int as n from login_attempt where key = $1', `email:${email}`),
        passkey: await count('select count(*)::int as n from passkey where "userId" = $1', uid),
      };
    },
    async stop() {
      await server.close();
      if (owned) await schema.drop();
    },
  };
}

/**
 * A test that edits sessions behind the server's back says so, as any writer must: the servers' session
 * caches drop what they hold for the user (on every server sharing the database).
 */
async function announceSessionChange(server: RunningServer, uid: string): Promise<void> {
  await server.db.run(async (uow) => uow.publish(sessionsTopic, { type: 'ended', uid }));
}

/**
 * Puts a row in the rider's cart as the shop made them before it had sizes (no size), a minute ago: an upgraded shop's
 * cart. (Older than any row the test adds, so that the cart's order never rests on two rows of one millisecond.)
 */
export async function rowWithoutSize(server: RunningServer, uid: string, itemid = '1'): Promise<string> {
  const product = catalogue.find((p) => p.itemid === itemid);
  if (!product) throw new Error(`no product ${itemid}`);
  const id = randomUUID();
  await server.db.kysely
    .insertInto('cart_item')
    .values({
      id,
      uid,
      visitor_cart_id: null,
      itemid,
      name: product.name,
      price_cents: product.priceCents,
      details: product.details,
      size: null,
      created_at: Date.now() - 60_000,
    })
    .execute();
  return id;
}
