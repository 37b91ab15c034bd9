import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import type { CartItem } from '../../src/shared/api';
import { limits } from '../../src/shared/limits';
import { Client, type Reply, withSize } from '../support/client';
import { crashScene } from '../support/crash-scene';
import { EventStream } from '../support/event-stream';
import type { TestDatabase } from '../support/test-database';

const users = 8;
const addsPerUser = 75; // 600 adds in all; each cart stays under its 100-row limit
const killAfterAcks = 200;

const scene = crashScene();

async function signUpUsers(url: string, count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client(url);
      await client.signup();
      return client;
    }),
  );
}

type Outcome = { ok: true; item: CartItem } | { ok: false; status?: number; body?: unknown; error?: string };

async function add(client: Client, itemid: string): Promise<Outcome> {
  try {
    const reply = await client.json('POST', '/api/cart', withSize(itemid));
    if (reply.status === 201) return { ok: true, item: reply.body.item };
    return { ok: false, status: reply.status, body: reply.body };
  } catch (error) {
    return { ok: false, error: String((error as Error).cause ?? error) };
  }
}

/**
 * What must hold of the database after any crash: every row is whole (its catalogue copy matches its
 * item number, its user exists), no cart is over the limit, and every acknowledged add is there, exactly.
 */
async function expectConsistent(db: TestDatabase, acknowledged: CartItem[], attempted: number) {
  const rows = await db.query<{
    id: string;
    uid: string;
    itemid: string;
    name: string;
    price_cents: number | string;
    details: string;
  }>('select id, uid, itemid, name, price_cents, details from cart_item');
  const userIds = new Set((await db.query<{ id: string }>('select id from "user"')).map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.size).toBe(rows.length);
  expect(rows.length).toBeGreaterThanOrEqual(acknowledged.length);
  expect(rows.length).toBeLessThanOrEqual(attempted);
  const perUser = new Map<string, number>();
  for (const row of rows) {
    const product = catalogue.find((p) => p.itemid === row.itemid);
    expect(product, row.id).toBeDefined();
    expect({ name: row.name, priceCents: Number(row.price_cents), details: row.details }).toEqual({
      name: product?.name,
      priceCents: product?.priceCents,
      details: product?.details,
    });
    expect(userIds.has(row.uid), row.uid).toBe(true);
    perUser.set(row.uid, (perUser.get(row.uid) ?? 0) + 1);
  }
  for (const count of perUser.values()) expect(count).toBeLessThanOrEqual(limits.cartMaxRows);
  for (const item of acknowledged) {
    const row = byId.get(item.id);
    expect(row, `acknowledged item ${item.id} is missing`).toBeDefined();
    expect({ ...row, price_cents: Number(row?.price_cents) }).toEqual({
      id: item.id,
      uid: item.uid,
      itemid: item.itemid,
      name: item.name,
      price_cents: item.priceCents,
      details: item.details,
    });
  }
  if (db.backend === 'sqlite') {
    expect(await db.query('pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(await db.query('pragma foreign_key_check')).toEqual([]);
  }
  return rows.length;
}

describe('crash durability', () => {
  it(`SIGKILL in the middle of ${users * addsPerUser} concurrent adds from ${users} users loses no acknowledged add`, async () => {
    const database = await scene.database();
    let server = await scene.start({ keepLogs: true });
    const clients = await signUpUsers(server.url, users);
    const acknowledged: CartItem[] = [];
    const running = server;
    let killed: Promise<unknown> | undefined;

    const outcomes = await Promise.all(
      clients.flatMap((client, u) =>
        Array.from({ length: addsPerUser }, async (_, i) => {
          const outcome = await add(client, String(((u + i) % 8) + 1));
          if (outcome.ok) {
            acknowledged.push(outcome.item);
            // SIGKILL: no shutdown code runs, as in a crash or an out-of-memory kill.
            if (acknowledged.length === killAfterAcks) {
              killed = running.kill('SIGKILL');
            }
          }
          return outcome;
        }),
      ),
    );
    expect(await killed).toMatchObject({ signal: 'SIGKILL' });
    const failed = outcomes.filter((o) => !o.ok);
    // The kill really came mid-stream: some adds were acknowledged, some never were.
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfterAcks);
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) expect(outcome.ok === false && outcome.status).toBeFalsy();

    // Restart on the same database: everything acknowledged is there, nothing is half-written.
    server = await scene.start({ keepLogs: true });
    const stored = await expectConsistent(database, acknowledged, users * addsPerUser);
    // Each user's cart, through the API with the cookies from before the crash (sessions survive too).
    let listed = 0;
    for (const before of clients) {
      const client = new Client(server.url);
      client.cookies = new Map(before.cookies);
      client.user = before.user;
      const cart = await client.cart();
      listed += cart.length;
      const mine = acknowledged.filter((item) => item.uid === client.user?.uid);
      for (const item of mine) expect(cart).toContainEqual(item);
    }
    expect(listed).toBe(stored);
    // And the shop works on.
    const again = new Client(server.url);
    again.cookies = new Map(clients[0]?.cookies);
    expect((await again.json('POST', '/api/cart', withSize('1'))).status).toBe(201);
    console.info(
      `[crash ${database.backend}] ${outcomes.length} concurrent adds; SIGKILL at the ${killAfterAcks}th acknowledgement; ` +
        `${acknowledged.length} acknowledged in all, ` +
        `${failed.length} cut off, ${stored} rows after restart (${stored - acknowledged.length} committed but unacknowledged)`,
    );
  }, 120_000);

  it('SIGTERM lets in-flight requests finish (and answers new ones 503), then exits 0; their adds are kept', async () => {
    const database = await scene.database();
    let server = await scene.start({ keepLogs: true });
    const clients = await signUpUsers(server.url, 5);
    const streams = await Promise.all(clients.map((client) => EventStream.open(client)));
    for (const stream of streams) await stream.next('snapshot');

    // Requests that are certainly in flight when the signal comes: their headers are in, half the body is not.
    const { port } = new URL(server.url);
    const slow = clients.map((client) => {
      const body = JSON.stringify(withSize('7'));
      let finish = () => {};
      const reply = new Promise<Reply>((done, fail) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/cart',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              cookie: client.cookieHeader,
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () => done({ status: res.statusCode ?? 0, headers: new Headers(), body: JSON.parse(text) }));
          },
        );
        req.on('error', fail);
        req.write(body.slice(0, 5));
        finish = () => req.end(body.slice(5));
      });
      return { reply, finish: () => finish() };
    });
    // Time for the idle server to take the slow requests' headers (and start their handlers) before anything else
    // competes for its event loop: only then are they in flight for the server too.
    await new Promise((done) => setTimeout(done, 300));
    // A burst of ordinary adds, under way as the signal comes.
    const burst = clients.flatMap((client) => Array.from({ length: 40 }, () => add(client, '2')));
    await new Promise((done) => setTimeout(done, 100));
    const running = server;
    const exit = running.kill('SIGTERM');
    for (let waited = 0; !running.logs.some((l) => l.msg === 'shutting down'); waited += 10) {
      if (waited > 5000) throw new Error('the server did not start shutting down');
      await new Promise((done) => setTimeout(done, 10));
    }
    // The shutdown has begun; now the slow requests send the rest of their bodies, and are answered.
    await new Promise((done) => setTimeout(done, 200));
    for (const s of slow) s.finish();
    const slowReplies = await Promise.all(slow.map((s) => s.reply));
    for (const reply of slowReplies) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const outcomes = await Promise.all(burst);
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(running.logs.some((l) => l.msg === 'closed')).toBe(true);
    // The live streams were ended by the server (browsers reconnect elsewhere), not left hanging.
    for (const stream of streams) await stream.ended(1000);

    // Every burst add was either done, or refused cleanly (503), or cut off with its connection...
    for (const outcome of outcomes) {
      if (outcome.ok || outcome.error) continue;
      expect(outcome.status).toBe(503);
      expect(outcome.body).toMatchObject({ code: 'server/unavailable' });
    }
    // ...and those cut off never reached the application: every add the server took in, it answered.
    const answered = running.requests.filter((r) => r.method === 'POST' && r.path === '/api/cart');
    const added = outcomes.filter((o) => o.ok).length + slow.length;
    const refused = outcomes.filter((o) => !o.ok && o.status === 503).length;
    expect(answered.filter((r) => r.status === 201)).toHaveLength(added);
    expect(answered.filter((r) => r.status === 503)).toHaveLength(refused);
    expect(answered).toHaveLength(added + refused);
    const acknowledged = [
      ...slowReplies.map((r) => r.body.item as CartItem),
      ...outcomes.flatMap((o) => (o.ok ? [o.item] : [])),
    ];
    server = await scene.start({ keepLogs: true });
    const stored = await expectConsistent(database, acknowledged, slow.length + burst.length);
    // A graceful shutdown has no "committed but unacknowledged" adds: every write was answered.
    expect(stored).toBe(acknowledged.length);
    console.info(
      `[sigterm ${database.backend}] ${slow.length} in-flight requests finished with 201 after SIGTERM; burst: ` +
        `${outcomes.filter((o) => o.ok).length} added, ${outcomes.filter((o) => !o.ok && o.status === 503).length} answered 503, ` +
        `${outcomes.filter((o) => !o.ok && o.error).length} connections cut before the server took them in; ${stored} rows after restart`,
    );
  }, 120_000);
});
