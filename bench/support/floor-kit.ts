/**
 * What the hand-written floor servers (bench/floor-*.ts) share: the same SQLite tables, indexes and durability
 * as Piaffe, sessions in a Map, reading a JSON body, answering JSON with Piaffe's headers, and in-process change
 * listeners. Plain `node:http` and better-sqlite3, nothing else: the least a server must do for the workload.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { firstSizes } from '../../src/server/db/migrations/0007-sizes-and-stock';
import { firstCatalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { securityHeaders } from '../../src/server/http/security';

/**
 * Piaffe's tables, as its migrations create them on SQLite (src/server/db/migrations/; `user` as Better Auth
 * creates it): the same columns, keys, foreign keys and indexes, so every insert maintains the same B-trees.
 */
const schema = `
CREATE TABLE "user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" integer not null, "image" text, "createdAt" date not null, "updatedAt" date not null);
CREATE TABLE "cart_item" ("id" text primary key, "uid" text not null references "user" ("id") on delete cascade, "itemid" text not null, "name" text not null, "price_cents" integer not null, "details" text not null, "created_at" bigint not null, "size" text);
CREATE INDEX "cart_item_uid_created_at" on "cart_item" ("uid", "created_at");
CREATE TABLE "counter" ("name" text primary key, "value" integer not null);
INSERT INTO "counter" ("name", "value") VALUES ('order_number', 10000);
CREATE TABLE "shop_order" ("number" integer primary key, "uid" text references "user" ("id") on delete set null, "email" text not null, "idempotency_key" text not null, "status" text not null, "payment_method" text not null, "full_name" text not null, "line1" text not null, "line2" text not null, "city" text not null, "region" text not null, "postal_code" text not null, "country" text not null, "phone" text not null, "total_cents" integer not null, "item_count" integer not null, "placed_at" bigint not null, "payment_id" text, "refund_id" text, "refund_started_at" bigint, "card_lease_until" bigint, "delivery" text default 'shipping' not null, "money" text default '{}' not null, "pay_by" bigint, constraint "shop_order_uid_idempotency_key" unique ("uid", "idempotency_key"));
CREATE INDEX "shop_order_uid_number" on "shop_order" ("uid", "number");
CREATE INDEX "shop_order_status_number" on "shop_order" ("status", "number");
CREATE INDEX "shop_order_email" on "shop_order" ("email");
CREATE INDEX "shop_order_placed_at" on "shop_order" ("placed_at");
CREATE TABLE "order_line" ("order_number" integer not null references "shop_order" ("number"), "position" integer not null, "itemid" text not null, "name" text not null, "price_cents" integer not null, "size" text, "size_key" text, constraint "order_line_pk" primary key ("order_number", "position"));
CREATE TABLE "product_size" ("itemid" text not null, "size" text not null, "position" integer not null, "stock" integer not null check (stock >= 0), "key" text, constraint "product_size_pk" primary key ("itemid", "size"));
CREATE UNIQUE INDEX "product_size_key" on "product_size" ("itemid", "key");
CREATE TABLE "product" ("itemid" text primary key, "position" integer not null, "name" text not null, "details" text not null, "price_cents" integer not null check (price_cents > 0), "pic" text not null, "largepic" text not null, "shown" integer not null, "version" integer not null, "updated_at" bigint not null);
CREATE TABLE "order_event" ("order_number" integer not null references "shop_order" ("number"), "seq" integer not null, "status" text not null, "at" bigint not null, "by_role" text not null, "by_uid" text references "user" ("id") on delete set null, "by_email" text not null, "note" text, constraint "order_event_pk" primary key ("order_number", "seq"));
CREATE TABLE "outbox" ("id" text primary key, "kind" text not null, "recipient" text not null, "subject" text not null, "text_body" text not null, "html_body" text not null, "state" text not null, "attempts" integer not null, "next_attempt_at" bigint not null, "last_error" text, "created_at" bigint not null, "sent_at" bigint, "attachment_name" text, "attachment_type" text, "attachment_bytes" blob);
CREATE INDEX "outbox_state_next" on "outbox" ("state", "next_attempt_at");
CREATE INDEX "outbox_created_at" on "outbox" ("created_at");
`;

/** The stock of every size in the bench's shops, Piaffe's and the floors'. */
export const benchStock = 1_000_000;

/** A fresh database file with Piaffe's durability: WAL, `synchronous = FULL` (an fsync per commit), foreign keys. */
export function openFloorDatabase(file?: string): { db: SQLite.Database; file: string; remove(): void } {
  const dir = file ? undefined : mkdtempSync(join(tmpdir(), 'piaffe-floor-'));
  const path = file ?? join(dir as string, 'floor.db');
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (!db.prepare(`select 1 from sqlite_master where name = 'cart_item'`).get()) {
    db.exec(schema);
    // Every product and every size of it, as a new Piaffe has them, with the bench's deep stock.
    const product = db.prepare(
      `insert into "product" ("itemid", "position", "name", "details", "price_cents", "pic", "largepic", "shown", "version", "updated_at") values (?, ?, ?, ?, ?, ?, ?, 1, 1, ?)`,
    );
    for (const [index, p] of firstCatalogue.entries()) {
      product.run(p.itemid, index + 1, p.name, p.details, p.priceCents, p.pic, p.largepic, Date.now());
    }
    const insert = db.prepare(
      `insert into "product_size" ("itemid", "size", "key", "position", "stock") values (?, ?, ?, ?, ?)`,
    );
    for (const [itemid, { sizes }] of Object.entries(firstSizes)) {
      for (const [index, size] of sizes.entries()) insert.run(itemid, size, size, index + 1, benchStock);
    }
  }
  return {
    db,
    file: path,
    remove() {
      db.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Rider {
  uid: string;
  email: string;
}

/** Sessions by cookie value, in memory (Piaffe's session cache, always hit). */
export const sessions = new Map<string, Rider>();
const cookieName = 'piaffe.session_token';

/** The rider whose session cookie the request carries. */
export function riderOf(request: IncomingMessage): Rider | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  let at = header.indexOf(`${cookieName}=`);
  while (at > 0 && header[at - 1] !== ' ' && header[at - 1] !== ';') at = header.indexOf(`${cookieName}=`, at + 1);
  if (at < 0) return undefined;
  const start = at + cookieName.length + 1;
  const end = header.indexOf(';', start);
  return sessions.get(end < 0 ? header.slice(start) : header.slice(start, end));
}

/** The headers of every API answer of Piaffe's (`presetHeaders` in src/server/http/security.ts), over plain http. */
const apiHeaders = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  ...securityHeaders('http://localhost:3000'),
};

/** Answers `body` as JSON (none for 204). */
export function reply(response: ServerResponse, status: number, body?: unknown, extra?: Record<string, string>): void {
  if (body === undefined) {
    const { 'Content-Type': _, ...headers } = apiHeaders;
    response.writeHead(status, { ...headers, ...extra });
    response.end();
    return;
  }
  const json = JSON.stringify(body);
  response.writeHead(status, { ...apiHeaders, 'Content-Length': Buffer.byteLength(json), ...extra });
  response.end(json);
}

export function error(response: ServerResponse, status: number, code: string): void {
  reply(response, status, { error: { code } });
}

const maxBodyBytes = 16 * 1024;
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The checks Piaffe makes on every API request before its route: a state-changing request from another origin
 * is refused (no Origin, or this server's own, passes). False when it has answered.
 */
export function sameOrigin(request: IncomingMessage, response: ServerResponse): boolean {
  if (!stateChanging.has(request.method as string)) return true;
  const origin = request.headers.origin;
  const port = request.socket.localPort;
  const foreign = origin
    ? origin !== `http://127.0.0.1:${port}` &&
      origin !== `http://localhost:${port}` &&
      origin !== `http://[::1]:${port}`
    : request.headers['sec-fetch-site'] === 'cross-site';
  if (foreign) error(response, 403, 'request/cross-origin');
  return !foreign;
}

/** The JSON body, at most 16 KiB, `application/json` only; undefined when it has answered an error. */
export async function readJson(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
    error(response, 415, 'request/unsupported-media-type');
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) {
      error(response, 413, 'request/body-too-large');
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(chunks.length === 1 ? (chunks[0] as Buffer).toString() : Buffer.concat(chunks).toString());
  } catch {
    error(response, 400, 'request/invalid-json');
    return undefined;
  }
}

/** In-process change listeners by topic, told after the commit (Piaffe's change feed on one server). */
const listeners = new Map<string, Set<(event: unknown) => void>>();
export function listen(topic: string, listener: (event: unknown) => void): () => void {
  const set = listeners.get(topic) ?? new Set();
  listeners.set(topic, set);
  set.add(listener);
  return () => set.delete(listener);
}
export function publish(topic: string, event: unknown): void {
  const set = listeners.get(topic);
  if (set) for (const listener of set) listener(event);
}

/** How a database names the refusals the floors answer: a foreign key's (a deleted account) and a unique key's. */
export interface ConstraintCodes {
  foreignKey: string;
  unique: string;
}

/** better-sqlite3's codes. */
export const sqliteCodes: ConstraintCodes = {
  foreignKey: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  unique: 'SQLITE_CONSTRAINT_UNIQUE',
};

/** A route; `param` is the rest of the path after a prefix route's `/`. */
export type Handler = (request: IncomingMessage, response: ServerResponse, param: string) => void | Promise<void>;

/**
 * Sign-up without a password hash (not measured: it only makes the riders the workloads need): a user row, and a
 * session cookie in the Map.
 */
export function signUpRoute(db: SQLite.Database): Handler {
  const insertUser = db.prepare(
    `insert into "user" ("id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt") values (?, '', ?, 0, null, ?, ?)`,
  );
  return signUpWith((uid, email, now) => insertUser.run(uid, email, now, now));
}

/** The sign-up of `signUpRoute`, on any database: `insertUser` writes the user row, and throws if the e-mail is taken. */
export function signUpWith(insertUser: (uid: string, email: string, now: string) => unknown): Handler {
  return async (request, response) => {
    const body = (await readJson(request, response)) as { email?: unknown } | undefined;
    if (body === undefined) return;
    if (typeof body?.email !== 'string') return error(response, 400, 'request/invalid-body');
    const uid = randomBytes(24).toString('base64url');
    const now = new Date().toISOString();
    try {
      await insertUser(uid, body.email, now);
    } catch {
      return error(response, 409, 'auth/email-already-in-use');
    }
    const token = randomBytes(32).toString('base64url');
    sessions.set(token, { uid, email: body.email });
    reply(
      response,
      201,
      { user: { uid, email: body.email }, role: 'rider' },
      {
        'Set-Cookie': `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Lax`,
      },
    );
  };
}

/** Routes by method and path: exact paths, or a prefix ending in `/` whose rest is the handler's parameter. */
export type Routes = Record<string, Handler>;

/**
 * Serves `routes` on 127.0.0.1 (`argv[2]` the port, 0 by default) and prints `listening <url>` once it listens.
 * `/api/*` requests pass the same-origin check first; handlers that throw are answered 500.
 */
export function serveFloor(routes: Routes, onClose?: () => void): Server {
  const prefixes = Object.keys(routes).filter((key) => key.endsWith('/'));
  const server = createServer((request, response) => {
    const url = request.url as string;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const key = `${request.method} ${path}`;
    let route = routes[key];
    let param = '';
    if (!route) {
      const prefix = prefixes.find((p) => key.startsWith(p));
      if (prefix) {
        route = routes[prefix];
        param = key.slice(prefix.length);
      }
    }
    if (!route) return error(response, 404, 'request/not-found');
    if (!sameOrigin(request, response)) return;
    try {
      const done = route(request, response, param);
      if (done instanceof Promise) {
        done.catch((failure) => {
          console.error(failure);
          if (!response.headersSent) error(response, 500, 'server/internal');
        });
      }
    } catch (failure) {
      console.error(failure);
      if (!response.headersSent) error(response, 500, 'server/internal');
    }
  });
  server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.close();
      server.closeAllConnections();
      onClose?.();
      process.exit(0);
    });
  }
  return server;
}
