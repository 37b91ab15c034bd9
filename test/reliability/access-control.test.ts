import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartItem, SessionUser } from '../../src/shared/api';
import { type ChildServer, startChild } from '../support/child-server';
import { Client, type Reply, randomEmail, withSize } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { createDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let server: ChildServer;
beforeAll(async () => {
  database = await createDatabase();
  server = await startChild({ database, keepLogs: true });
});
afterAll(async () => {
  await server?.kill('SIGKILL');
  await database?.drop();
});

/** Every row of every table that mentions any of `needles`, as `table: row`. */
async function rowsMentioning(...needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of await database.tables()) {
    for (const row of await database.query(`select * from "${table}"`)) {
      const text = JSON.stringify(row).toLowerCase();
      if (needles.some((n) => text.includes(n.toLowerCase()))) found.push(`${table}: ${JSON.stringify(row)}`);
    }
  }
  return found;
}

describe('IDOR: user B against each of A’s items, through every route', () => {
  let alice: Client;
  let bob: Client;
  let a: SessionUser;
  let b: SessionUser;
  let aliceItems: CartItem[];
  let bobItem: CartItem;

  beforeAll(async () => {
    alice = new Client(server.url);
    bob = new Client(server.url);
    a = await alice.signup();
    b = await bob.signup();
    aliceItems = [await alice.add('1'), await alice.add('4'), await alice.add('8')];
    bobItem = await bob.add('5');
  });

  async function expectAliceIntact() {
    expect(await alice.cart()).toEqual(aliceItems);
    expect((await alice.session()).body).toEqual({ user: a, role: 'rider' });
    const rows = await database.query<{ id: string }>('select id from cart_item where uid = $1 order by id', [a.uid]);
    expect(rows.map((r) => r.id)).toEqual(aliceItems.map((i) => i.id).sort());
  }

  it('DELETE /api/cart/:id with A’s ids, in every spelling, is 404 cart/not-found', async () => {
    for (const item of aliceItems) {
      for (const path of [
        `/api/cart/${item.id}`,
        `/api/cart/${item.id.toUpperCase()}`,
        `/api/cart/${encodeURIComponent(item.id)}`,
        `/api/cart/${item.id}?uid=${a.uid}`,
        `/api/cart/${item.id}/`,
        `/api/cart/./${item.id}`,
      ]) {
        const reply = await bob.json('DELETE', path, undefined, { 'x-user-id': a.uid });
        expect([404], `${path}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
        expect(reply.body.code).toMatch(/^(cart|request)\/not-found$/);
      }
      // With a body naming A as the owner, too.
      expectError(await bob.json('DELETE', `/api/cart/${item.id}`, { uid: a.uid, id: item.id }), 404, 'cart/not-found');
    }
    await expectAliceIntact();
  });

  it('no route reads A’s items for B: the list, the stream, per-id paths, query and body parameters', async () => {
    const reads: Reply[] = [
      await bob.json('GET', '/api/cart'),
      await bob.json('GET', `/api/cart?uid=${a.uid}`),
      await bob.json('GET', '/api/cart', undefined, { 'x-user-id': a.uid }),
      ...(await Promise.all(aliceItems.map((item) => bob.json('GET', `/api/cart/${item.id}`)))),
      await bob.json('GET', `/api/auth/session?uid=${a.uid}`),
    ];
    for (const reply of reads) {
      const text = JSON.stringify(reply.body);
      expect(text).not.toContain(a.uid);
      for (const item of aliceItems) expect(text).not.toContain(item.id);
    }
    expect(reads[0]?.body).toEqual({ items: [bobItem] });
    expect(reads[1]?.body).toEqual({ items: [bobItem] });
    const stream = await EventStream.open(bob);
    expect((await stream.next('snapshot')).items).toEqual([bobItem]);
    stream.close();
    await expectAliceIntact();
  });

  it('B cannot add to A’s cart or act on A’s account by naming A', async () => {
    expectError(await bob.json('POST', '/api/cart', { ...withSize('2'), uid: a.uid }), 400, 'request/invalid-body');
    const added = await bob.json('POST', `/api/cart?uid=${a.uid}`, withSize('2'), { 'x-user-id': a.uid });
    expect(added.status).toBe(201);
    expect(added.body.item.uid).toBe(b.uid);
    expect((await bob.json('DELETE', `/api/cart/${added.body.item.id}`)).status).toBe(204);
    // A's address cannot be taken, and naming A in the body is refused.
    expectError(await bob.json('PUT', '/api/account/email', { email: a.email }), 409, 'auth/email-already-in-use');
    expectError(
      await bob.json('PUT', '/api/account/email', { email: randomEmail(), uid: a.uid }),
      400,
      'request/invalid-body',
    );
    expectError(
      await bob.json('PUT', '/api/account/password', { password: 'hijack1', uid: a.uid }),
      400,
      'request/invalid-body',
    );
    await expectAliceIntact();
    expect((await new Client(server.url).login(a.email, 'secret1')).status).toBe(200);
    expectError(await new Client(server.url).login(a.email, 'hijack1'), 401, 'auth/invalid-credential');
  });

  it('B deleting "A’s" account deletes only B', async () => {
    expect((await bob.json('DELETE', `/api/account?uid=${a.uid}`, undefined, { 'x-user-id': a.uid })).status).toBe(204);
    expect(await rowsMentioning(b.uid, b.email)).toEqual([]);
    await expectAliceIntact();
  });

  it('anonymous requests to every session route are 401 and change nothing', async () => {
    const anonymous = new Client(server.url);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/api/auth/session'],
      ['GET', '/api/cart'],
      ['POST', '/api/cart', withSize('1')],
      ['DELETE', `/api/cart/${aliceItems[0]?.id}`],
      ['GET', '/api/cart/stream'],
      ['PUT', '/api/account/email', { email: randomEmail() }],
      ['PUT', '/api/account/password', { password: 'hijack1' }],
      ['DELETE', '/api/account'],
    ];
    for (const [method, path, body] of attempts) {
      expectError(await anonymous.json(method, path, body), 401, 'auth/unauthenticated');
    }
    await expectAliceIntact();
  });
});

describe('ending a session ends it on the server: the old cookie stops working everywhere', () => {
  /** Every route that needs a session, replayed with `cookie`: each must be 401. */
  async function expectCookieDead(cookie: string, itemId: string) {
    const replay = new Client(server.url);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/auth/session'],
      ['GET', '/api/cart'],
      ['POST', '/api/cart', withSize('1')],
      ['DELETE', `/api/cart/${itemId}`],
      ['GET', '/api/cart/stream'],
      ['PUT', '/api/account/email', { email: randomEmail() }],
      ['PUT', '/api/account/password', { password: 'another1' }],
      ['DELETE', '/api/account'],
    ];
    for (const [method, path, body] of routes) {
      expectError(await replay.json(method, path, body, { cookie }), 401, 'auth/unauthenticated');
    }
  }

  const endings: Array<[string, (client: Client) => Promise<Reply>]> = [
    ['a log-out', (client) => client.json('POST', '/api/auth/logout')],
    ['a password change', (client) => client.json('PUT', '/api/account/password', { password: 'changed1' })],
    ['an e-mail change', (client) => client.json('PUT', '/api/account/email', { email: randomEmail() })],
  ];

  it.each(endings)('after %s', async (_name, end) => {
    const client = new Client(server.url);
    const user = await client.signup();
    const item = await client.add('6');
    const cookie = client.cookieHeader;
    // Warm every route with the cookie first, so that nothing can answer from what it saw before.
    expect((await client.session()).status).toBe(200);
    expect(await client.cart()).toEqual([item]);
    const stream = await EventStream.open(client);
    await stream.next('snapshot');

    expect((await end(client)).status).toBe(204);
    await expectCookieDead(cookie, item.id);
    await stream.next('signed-out');
    const sessions = await database.query<{ n: number | string }>(
      'select count(*) as n from session where "userId" = $1',
      [user.uid],
    );
    expect(Number(sessions[0]?.n)).toBe(0);
    // The data is untouched: only the session ended.
    expect(await database.query('select id from cart_item where uid = $1', [user.uid])).toEqual([{ id: item.id }]);
  });
});

describe('a deleted account leaves no row behind in any table', () => {
  it('scans every table of the database for the user id and e-mail, before and after', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const second = new Client(server.url);
    expect((await second.login(user.email, 'secret1')).status).toBe(200);
    await client.add('1');
    await client.add('2');
    // A failed log-in leaves a counter under the e-mail; deletion must clear it too.
    expectError(await new Client(server.url).login(user.email, 'wrong-1'), 401, 'auth/invalid-credential');
    const bystander = new Client(server.url);
    const other = await bystander.signup();
    await bystander.add('3');

    const tables = await database.tables();
    for (const table of ['user', 'session', 'account', 'cart_item', 'login_attempt']) expect(tables).toContain(table);
    const before = await rowsMentioning(user.uid, user.email);
    // The scan sees the user everywhere they are: user, 2 sessions, account, 2 cart rows, the counter, the link to
    // confirm the address and its e-mail.
    const tablesBefore = new Set(before.map((row) => row.split(':')[0]));
    expect([...tablesBefore].sort()).toEqual([
      'account',
      'cart_item',
      'email_confirmation',
      'login_attempt',
      'outbox',
      'session',
      'user',
    ]);
    expect(before.length).toBeGreaterThanOrEqual(9);

    expect((await client.json('DELETE', '/api/account')).status).toBe(204);
    expect(await rowsMentioning(user.uid, user.email)).toEqual([]);
    // Nobody else lost anything.
    expect((await rowsMentioning(other.uid)).length).toBeGreaterThanOrEqual(4);
    expect((await bystander.session()).body).toEqual({ user: other, role: 'rider' });
  });
});
