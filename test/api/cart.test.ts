import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCartStore } from '../../src/server/cart/cart-store';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import type { CartItem } from '../../src/shared/api';
import { limits } from '../../src/shared/limits';
import { Client, withSize } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Runs `tasks` with at most `limit` in flight at once. */
async function pool<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('add', () => {
  it('answers 201 with the item copied from the catalogue, for each of the eight products', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    for (const product of catalogue) {
      const reply = await client.json('POST', '/api/cart', withSize(product.itemid));
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({
        item: {
          id: expect.stringMatching(uuid),
          uid: user.uid,
          itemid: product.itemid,
          name: product.name,
          priceCents: product.priceCents,
          details: product.details,
          size: withSize(product.itemid).size,
          available: true,
        },
      });
    }
    // The catalogue itself is pinned to the spec's table by src/shared/catalogue.test.ts.
    expect((await server.rowsOf(user.uid, user.email)).cart_item).toBe(8);
  });

  it('refuses name, price, details, uid or id sent by the browser with 400 request/invalid-body', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const other = await new Client(server.url).signup();
    const extras: Record<string, unknown>[] = [
      { price: 0.01 },
      { priceCents: 1 },
      { name: 'Free Saddle' },
      { details: '<script>alert(1)</script>' },
      { uid: other.uid },
      { id: '00000000-0000-0000-0000-000000000000' },
      { quantity: 2 },
    ];
    for (const extra of extras) {
      expectError(await client.json('POST', '/api/cart', { ...withSize('2'), ...extra }), 400, 'request/invalid-body');
    }
    expect(await client.cart()).toEqual([]);
    expect((await server.rowsOf(other.uid, other.email)).cart_item).toBe(0);
    expect((await server.rowsOf(user.uid, user.email)).cart_item).toBe(0);
  });

  describe('unknown item numbers', () => {
    let client: Client;
    beforeAll(async () => {
      client = new Client(server.url);
      await client.signup();
    });
    it.each([['0'], ['9'], ['10'], [''], [' 1'], ['1 '], ['01'], ['1.0'], ['abc'], ['１'], ['1234567890abcdef']])(
      'refuses item number %j with 400 cart/unknown-item, adding nothing',
      async (itemid) => {
        expectError(await client.json('POST', '/api/cart', { itemid }), 400, 'cart/unknown-item');
        expect(await client.cart()).toEqual([]);
      },
    );
  });

  it('answers 401 auth/unauthenticated without a session, adding nothing', async () => {
    expectError(await new Client(server.url).json('POST', '/api/cart', withSize('1')), 401, 'auth/unauthenticated');
    expectError(await new Client(server.url).json('GET', '/api/cart'), 401, 'auth/unauthenticated');
    expectError(
      await new Client(server.url).json('DELETE', `/api/cart/${crypto.randomUUID()}`),
      401,
      'auth/unauthenticated',
    );
  });
});

describe('list', () => {
  it('answers 200 {items: []} for a new user, then the items oldest first', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const empty = await client.json('GET', '/api/cart');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ items: [] });

    const added: CartItem[] = [];
    for (const itemid of ['8', '1', '5', '1', '3']) {
      added.push(await client.add(itemid));
      // Distinct milliseconds, so "oldest first" is decided by time and not by chance.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const reply = await client.json('GET', '/api/cart');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ items: added });
    expect(reply.body.items.map((i: CartItem) => i.itemid)).toEqual(['8', '1', '5', '1', '3']);
    expect(new Set(added.map((i) => i.id)).size).toBe(5);
    expect(added.every((i) => i.uid === user.uid)).toBe(true);
  });

  it('lists rows in the order they were added, even when adds come within one millisecond', async () => {
    const client = new Client(server.url);
    const { uid } = await client.signup();
    // Twenty adds straight through the cart store, faster than HTTP allows: many share a millisecond, and their ids
    // are random.
    const cart = createCartStore(server.db);
    const added: string[] = [];
    for (let i = 0; i < 20; i++) {
      const result = await cart.add({ uid }, '1', 'Cob', limits.cartMaxRows);
      if (!result.ok) throw new Error(`add refused: ${result.reason}`);
      added.push(result.item.id);
    }
    expect((await client.cart()).map((item) => item.id)).toEqual(added);
  });
});

describe('delete', () => {
  it('answers 204 and removes only that row; deleting it again is 404 cart/not-found', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const a = await client.add('1');
    const b = await client.add('1');
    const c = await client.add('2');
    const reply = await client.json('DELETE', `/api/cart/${b.id}`);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(await client.cart()).toEqual([a, c]);
    expectError(await client.json('DELETE', `/api/cart/${b.id}`), 404, 'cart/not-found');
    expectError(await client.json('DELETE', `/api/cart/${crypto.randomUUID()}`), 404, 'cart/not-found');
    expect(await client.cart()).toEqual([a, c]);
    expect((await server.rowsOf(user.uid, user.email)).cart_item).toBe(2);
  });

  it('treats ids exactly: the upper-cased id of an item is 404 cart/not-found', async () => {
    const client = new Client(server.url);
    const item = await client.signup().then(() => client.add('7'));
    const upper = await client.json('DELETE', `/api/cart/${item.id.toUpperCase()}`);
    // SQLite and PostgreSQL compare text exactly; an upper-cased id is another id.
    expectError(upper, 404, 'cart/not-found');
    expect(await client.cart()).toEqual([item]);
  });
});

describe('100-row limit', () => {
  it('accepts 100 rows; the 101st add is 409 cart/full and the cart still has exactly 100 rows', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const statuses = await pool(limits.cartMaxRows, 8, async (i) => {
      const reply = await client.json('POST', '/api/cart', withSize(String((i % 8) + 1)));
      return reply.status;
    });
    expect(statuses.filter((s) => s === 201)).toHaveLength(100);

    const full = await client.json('POST', '/api/cart', withSize('1'));
    expectError(full, 409, 'cart/full');
    expect(full.body.message).toMatch(/100/);
    expect(await client.cart()).toHaveLength(100);
    expect((await server.rowsOf(user.uid, user.email)).cart_item).toBe(100);

    // Racing adds cannot overshoot the limit: delete five, then send ten at once.
    const items = await client.cart();
    for (const item of items.slice(0, 5))
      expect((await client.json('DELETE', `/api/cart/${item.id}`)).status).toBe(204);
    const race = await Promise.all(Array.from({ length: 10 }, () => client.json('POST', '/api/cart', withSize('3'))));
    expect(race.filter((r) => r.status === 201)).toHaveLength(5);
    for (const reply of race.filter((r) => r.status !== 201)) expectError(reply, 409, 'cart/full');
    expect(await client.cart()).toHaveLength(100);
    expect((await server.rowsOf(user.uid, user.email)).cart_item).toBe(100);

    // The limit is per user: another user's cart is not full.
    const other = new Client(server.url);
    await other.signup();
    expect((await other.json('POST', '/api/cart', withSize('1'))).status).toBe(201);
  });
});

describe("isolation between users' carts", () => {
  it("lets user B neither list, delete nor see on B's stream any of A's items; A's items stay intact", async () => {
    const alice = new Client(server.url);
    const bob = new Client(server.url);
    const a = await alice.signup();
    await bob.signup();
    const bobItem = await bob.add('5');
    const bobStream = await EventStream.open(bob);
    expect((await bobStream.next('snapshot')).items).toEqual([bobItem]);

    const aliceItems: CartItem[] = [];
    for (const itemid of ['1', '2', '3']) aliceItems.push(await alice.add(itemid));

    expect(await bob.cart()).toEqual([bobItem]);
    for (const item of aliceItems) {
      expectError(await bob.json('DELETE', `/api/cart/${item.id}`), 404, 'cart/not-found');
    }
    // A change of B's own, so the stream has demonstrably delivered everything before it.
    const marker = await bob.add('6');
    expect((await bobStream.next('added')).item).toEqual(marker);
    const seen = JSON.stringify(bobStream.events);
    for (const item of aliceItems) expect(seen).not.toContain(item.id);
    expect(seen).not.toContain(a.uid);
    expect(bobStream.events.filter((e) => e.type === 'added')).toHaveLength(1);
    expect(bobStream.events.filter((e) => e.type === 'removed')).toHaveLength(0);
    bobStream.close();

    expect(await alice.cart()).toEqual(aliceItems);
    expect((await server.rowsOf(a.uid, a.email)).cart_item).toBe(3);
  });

  it("a new B stream's snapshot holds only B's items", async () => {
    const alice = new Client(server.url);
    const bob = new Client(server.url);
    await alice.signup();
    await bob.signup();
    await alice.add('1');
    const stream = await EventStream.open(bob);
    expect(stream.status).toBe(200);
    expect((await stream.next('snapshot')).items).toEqual([]);
    stream.close();
  });
});
