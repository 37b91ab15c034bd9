import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import type { CatalogueProduct, StockEvent } from '../../src/shared/api';
import { Client, confirmedRider } from '../support/client';
import { EventStream, openStockStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { rowWithoutSize, startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

/** Sizes and stock (docs/product.md §12), on the backend under test. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const rider = () => confirmedRider(server.url);

async function stockOf(itemid: string, size: string): Promise<number | undefined> {
  return (await server.stock.sizesOf(itemid)).find((s) => s.size === size)?.stock;
}

async function counts() {
  const count = async (table: 'shop_order' | 'order_line' | 'outbox' | 'cart_item') =>
    Number(
      (
        await server.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    orders: await count('shop_order'),
    lines: await count('order_line'),
    emails: await count('outbox'),
    cartRows: await count('cart_item'),
  };
}

describe('a new shop', () => {
  it('has the sizes of section 12, with 5 of each in stock and 2 of each saddle size', async () => {
    const shop = await startTestServer({}, { seededStock: true });
    try {
      const reply = await new Client(shop.url).json('GET', '/api/catalogue');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('no-store');
      const sizes = Object.fromEntries(
        (reply.body.products as CatalogueProduct[]).map((p) => [p.name, p.sizes.map((s) => `${s.size}:${s.stock}`)]),
      );
      const bridle = ['Pony:5', 'Cob:5', 'Full:5', 'Warmblood:5'];
      const boots = ['6:5', '7:5', '8:5', '9:5', '10:5', '11:5'];
      const jacket = ['XS:5', 'S:5', 'M:5', 'L:5', 'XL:5'];
      expect(sizes).toEqual({
        'Anky Bridle': bridle,
        'Albion SLK Saddle': ['16.5":2', '17":2', '17.5":2', '18":2'],
        'Ariat Westchester Boots': boots,
        'Carlson Barn Jacket': jacket,
        'Carlson Tall Boots': boots,
        'Crochet Saddle Blanket': ['Pony:5', 'Cob:5', 'Full:5'],
        'Dakota Barn Jacket': jacket,
        'Fellmore Bridle': bridle,
      });
      // Everything the home page shows, in the catalogue's order, in one answer.
      expect((reply.body.products as CatalogueProduct[]).map((p) => p.itemid)).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
      ]);
    } finally {
      await shop.stop();
    }
  });
});

describe('adding to the cart', () => {
  it('keeps the size in the row', async () => {
    const client = await rider();
    const item = await client.add('4', 'XL');
    expect(item).toMatchObject({ itemid: '4', name: 'Carlson Barn Jacket', size: 'XL' });
    expect(await client.cart()).toEqual([item]);
  });

  it.each([
    ['no size, for a product with several', { itemid: '1' }],
    ['a size the product does not come in', { itemid: '1', size: 'XXL' }],
    ["another product's size", { itemid: '1', size: 'XS' }],
    ['a size in another case', { itemid: '4', size: 'xs' }],
    ['an empty size', { itemid: '4', size: '' }],
  ])('refuses %s with 400 cart/invalid-size', async (_, body) => {
    const client = await rider();
    expectError(await client.json('POST', '/api/cart', body), 400, 'cart/invalid-size');
    expect(await client.cart()).toEqual([]);
  });

  it("refuses a sold-out size with 409 cart/sold-out and 'Sorry, that size is sold out.'", async () => {
    await server.stock.set(0, { itemid: '7', size: 'XS' });
    const client = await rider();
    expectError(
      await client.json('POST', '/api/cart', { itemid: '7', size: 'XS' }),
      409,
      'cart/sold-out',
      'Sorry, that size is sold out.',
    );
    expect(await client.cart()).toEqual([]);
  });
});

describe('placing an order', () => {
  it('takes the stock of its rows, keeps the sizes in the lines, and leaves other sizes alone', async () => {
    await server.stock.set(4, { itemid: '3' });
    const client = await rider();
    await client.add('3', '7');
    await client.add('3', '7');
    await client.add('3', '9');
    const reply = await client.placeOrder();
    expect(reply.status).toBe(201);
    expect(reply.body.order.lines.map((l: { size: string }) => l.size)).toEqual(['7', '7', '9']);
    expect(await server.stock.sizesOf('3')).toEqual([
      { size: '6', stock: 4 },
      { size: '7', stock: 2 },
      { size: '8', stock: 4 },
      { size: '9', stock: 3 },
      { size: '10', stock: 4 },
      { size: '11', stock: 4 },
    ]);
    // The order page reads the sizes back.
    const read = await client.json('GET', `/api/orders/${reply.body.order.number}`);
    expect(read.body.order.lines.map((l: { size: string }) => l.size)).toEqual(['7', '7', '9']);
  });

  it('is refused with order/sold-out and the rows concerned when a size has fewer left than asked; nothing changes', async () => {
    await server.stock.set(1, { itemid: '5', size: '10' });
    await server.stock.set(7, { itemid: '5', size: '11' });
    const client = await rider();
    const first = await client.add('5', '10');
    const second = await client.add('5', '10');
    const other = await client.add('5', '11');
    const before = await counts();
    const reply = await client.placeOrder();
    expectError(reply, 409, 'order/sold-out');
    expect(reply.body.rows.sort()).toEqual([first.id, second.id].sort());
    // Nothing taken (not even the size that had enough), nothing ordered or e-mailed, the cart as it was.
    expect(await stockOf('5', '10')).toBe(1);
    expect(await stockOf('5', '11')).toBe(7);
    expect(await counts()).toEqual(before);
    expect((await client.cart()).map((i) => i.id)).toEqual([first.id, second.id, other.id]);

    // Once the rider removes the rows concerned, the same page's order goes through.
    await client.json('DELETE', `/api/cart/${second.id}`);
    expect((await client.placeOrder()).status).toBe(201);
    expect(await stockOf('5', '10')).toBe(0);
    expect(await stockOf('5', '11')).toBe(6);
  });

  it('is refused with order/size-missing for a row put in the cart before the shop had sizes', async () => {
    const client = await rider();
    const sized = await client.add('8', 'Cob');
    const id = await rowWithoutSize(server, client.user?.uid ?? '', '8');
    // The row without a size stays readable.
    expect((await client.cart()).map((i) => [i.name, i.size])).toEqual([
      ['Fellmore Bridle', null],
      ['Fellmore Bridle', 'Cob'],
    ]);
    const before = await stockOf('8', 'Cob');
    const reply = await client.placeOrder();
    expectError(reply, 409, 'order/size-missing');
    expect(reply.body.rows).toEqual([id]);
    expect(await stockOf('8', 'Cob')).toBe(before);
    expect((await client.cart()).map((i) => i.id)).toEqual([id, sized.id]);
  });
});

describe('cancelling an order', () => {
  it('gives its stock back, exactly once, when the owner and the rider cancel at once', async () => {
    const owner = new Client(server.url);
    const { email } = await owner.signupConfirmed();
    await createRoles(server.db).grant(email);
    for (let round = 0; round < 5; round++) {
      await server.stock.set(3, { itemid: '6' });
      const client = await rider();
      await client.add('6', 'Pony');
      await client.add('6', 'Pony');
      await client.add('6', 'Cob');
      const order = await client.order();
      expect([await stockOf('6', 'Pony'), await stockOf('6', 'Cob')]).toEqual([1, 2]);
      const [byRider, byOwner] = await Promise.all([
        client.json('POST', `/api/orders/${order.number}/cancel`),
        owner.json('POST', `/api/admin/orders/${order.number}/moves`, { to: 'cancelled', from: 'placed' }),
      ]);
      // One of them cancels; the other is told the order has changed.
      expect([byRider.status, byOwner.status].sort()).toEqual([200, 409]);
      expect([await stockOf('6', 'Pony'), await stockOf('6', 'Cob')]).toEqual([3, 3]);
    }
  });
});

describe('the live stock', () => {
  it('starts with every size, then follows each order and cancel within the stream', async () => {
    await server.stock.set(2, { itemid: '2', size: '18"' });
    const watcher = await rider();
    const stream = await openStockStream(watcher);
    expect(stream.status).toBe(200);
    const { stock } = await stream.next('snapshot');
    expect(stock).toContainEqual({ itemid: '2', size: '18"', stock: 2 });
    expect(stock).toHaveLength(37);

    const buyer = await rider();
    await buyer.add('2', '18"');
    const order = await buyer.order();
    expect(await stream.next('stock')).toEqual({ type: 'stock', itemid: '2', size: '18"', stock: 1 });
    await buyer.json('POST', `/api/orders/${order.number}/cancel`);
    expect(await stream.next('stock', 3000, 1)).toEqual({ type: 'stock', itemid: '2', size: '18"', stock: 2 });
    stream.close();
  });

  it("sends no first snapshot to a page that shows the products as they are (its HTML's version), and everything to another", async () => {
    await server.stock.set(2, { itemid: '2', size: '18"' });
    const watcher = await rider();
    const html = String((await watcher.raw('GET', '/home')).body);
    const data = JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? '');
    const version = encodeURIComponent(data.catalogue.version);
    const known = await EventStream.open<StockEvent>(watcher, `/api/catalogue/stream?known=${version}`);
    expect(known.status).toBe(200);

    const buyer = await rider();
    await buyer.add('2', '18"');
    await buyer.order();
    expect(await known.next('stock')).toEqual({ type: 'stock', itemid: '2', size: '18"', stock: 1 });
    // Nothing came before the change: the page had it all.
    expect(known.events.map((event) => event.type)).toEqual(['stock']);

    // The version is no longer the shop's, and nonsense is no version: both get everything.
    for (const query of [`known=${version}`, 'known=nonsense', `known=${'x'.repeat(5000)}`]) {
      const stream = await EventStream.open<StockEvent>(watcher, `/api/catalogue/stream?${query}`);
      expect((await stream.next('snapshot')).stock, query).toContainEqual({ itemid: '2', size: '18"', stock: 1 });
      expect((await stream.next('products')).products.length, query).toBeGreaterThan(0);
      stream.close();
    }
    known.close();
  });

  it('carries no hidden product, first or on a change; shown again, it comes with its stock as it is now', async () => {
    const owner = await rider();
    await createRoles(server.db).grant(owner.user?.email ?? '');
    const showItem3 = async (shown: boolean) => {
      const { product } = (await owner.json('GET', '/api/admin/products/3')).body;
      const sizes = product.sizes.map((s: { size: string; stock: number }) => ({ ...s, stockShown: s.stock }));
      const { name, details, priceCents, version } = product;
      const saved = await owner.json('PUT', '/api/admin/products/3', {
        ...{ name, details, priceCents, sizes, version, shown },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    };
    const of3 = (events: readonly StockEvent[]) =>
      events.flatMap((event): unknown[] =>
        event.type === 'stock' && event.itemid === '3'
          ? [event]
          : event.type === 'snapshot'
            ? event.stock.filter((size) => size.itemid === '3')
            : event.type === 'products'
              ? event.products.filter((product) => product.itemid === '3')
              : [],
      );
    await showItem3(false);
    try {
      const stream = await openStockStream(await rider());
      const { stock } = await stream.next('snapshot');
      expect(stock.length).toBeGreaterThan(0);
      await stream.next('products');
      // A change of the hidden product's stock, then one of a shown product's: the first never comes.
      await server.stock.set(7, { itemid: '3' });
      await server.stock.set(9, { itemid: '1', size: 'Full' });
      expect(await stream.next('stock')).toEqual({ type: 'stock', itemid: '1', size: 'Full', stock: 9 });
      expect(of3(stream.events)).toEqual([]);

      // Shown again: its stock as it is now, and its changes from then on.
      await showItem3(true);
      const again = await stream.next('snapshot', 3000, 1);
      const sizes3 = await server.stock.sizesOf('3');
      expect(again.stock.filter((size) => size.itemid === '3')).toEqual(
        sizes3.map(({ size }) => ({ itemid: '3', size, stock: 7 })),
      );
      expect((await stream.next('products', 3000, 1)).products.map((p) => p.itemid)).toContain('3');
      await server.stock.set(6, { itemid: '3', size: '8' });
      const change = { type: 'stock', itemid: '3', size: '8', stock: 6 };
      await until(() => stream.events.some((event) => JSON.stringify(event) === JSON.stringify(change)), 3000);

      // Hidden again: gone from the next frames.
      await showItem3(false);
      const hidden = await stream.next('snapshot', 3000, 2);
      expect(hidden.stock.filter((size) => size.itemid === '3')).toEqual([]);
      stream.close();
    } finally {
      await showItem3(true);
    }
  });

  it('needs a log-in (401), and HEAD answers the headers alone', async () => {
    expectError(await new Client(server.url).json('GET', '/api/catalogue/stream'), 401, 'auth/unauthenticated');
    const client = await rider();
    const head = await client.raw('HEAD', '/api/catalogue/stream');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });
});
