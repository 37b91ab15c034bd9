import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { deletePictures, deleteUnusedPictures, unusedPictures } from '../../src/server/catalogue/unused-pictures';
import { firstSizes } from '../../src/server/db/migrations/0007-sizes-and-stock';
import { firstCatalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import type { CatalogueProduct, StockEvent } from '../../src/shared/api';
import { productLimits } from '../../src/shared/limits';
import type { AdminProduct } from '../../src/shared/products';
import { Client, confirmedRider, type Reply } from '../support/client';
import { EventStream, openStockStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import {
  animatedWebp,
  decompressionBomb,
  jpegPicture,
  jpegWithExif,
  pngPicture,
  textNamedJpg,
  webpPicture,
} from '../support/pictures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let owner: Client;
beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerClient();
});
afterAll(async () => {
  await server?.stop();
});

async function ownerClient(): Promise<Client> {
  const client = new Client(server.url);
  const { email } = await client.signupConfirmed();
  await createRoles(server.db).grant(email);
  return client;
}

const rider = () => confirmedRider(server.url);

interface Form {
  name: string;
  details: string;
  priceCents: number;
  shown: boolean;
  sizes: { size: string; stock: number; was?: string; stockShown?: number }[];
}

/** A new product of the owner's, in one size ('One size', as the test client adds unknown items), shown. */
async function newProduct(form: Partial<Form> = {}): Promise<AdminProduct> {
  const reply = await owner.json('POST', '/api/admin/products', {
    name: 'Schooling Numnah',
    details: 'A quilted cotton numnah.',
    priceCents: 4500,
    shown: true,
    sizes: [{ size: 'One size', stock: 10 }],
    ...form,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.product;
}

/** The owner's form filled from `product`, as the back office sends it back, with `changes`. */
function formOf(product: AdminProduct, changes: Partial<Form> = {}) {
  return {
    name: product.name,
    details: product.details,
    priceCents: product.priceCents,
    shown: product.shown,
    sizes: product.sizes.map((s) => ({ size: s.size, stock: s.stock, stockShown: s.stock })),
    version: product.version,
    ...changes,
  };
}

const save = (product: AdminProduct, changes: Partial<Form> = {}, client = owner) =>
  client.json('PUT', `/api/admin/products/${product.itemid}`, formOf(product, changes));

async function productOf(itemid: string): Promise<{ product: AdminProduct; history: { by: string; what: string }[] }> {
  const reply = await owner.json('GET', `/api/admin/products/${itemid}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

async function shownProducts(): Promise<CatalogueProduct[]> {
  return (await new Client(server.url).json('GET', '/api/catalogue')).body.products;
}

const upload = (itemid: string, body: Uint8Array, type = 'image/jpeg', client = owner) =>
  client.raw('PUT', `/api/admin/products/${itemid}/picture`, {
    body: new Uint8Array(body),
    headers: { 'content-type': type },
  });

describe("the owner's catalogue: access", () => {
  /** Every route of the owner's catalogue, with a request each that an owner may send. */
  async function productRequests(client: Client): Promise<Reply[]> {
    const picture = await jpegPicture();
    return [
      await client.json('GET', '/api/admin/products'),
      await client.json('POST', '/api/admin/products', {
        name: 'X',
        details: '',
        priceCents: 1,
        shown: false,
        sizes: [],
      }),
      await client.json('PUT', '/api/admin/product-order', { itemids: ['1'] }),
      await client.json('GET', '/api/admin/products/1'),
      await client.json('PUT', '/api/admin/products/1', {
        name: 'Hacked',
        details: '',
        priceCents: 1,
        shown: false,
        sizes: [{ size: 'Pony', stock: 0 }],
        version: 1,
      }),
      await upload('1', picture, 'image/jpeg', client),
    ];
  }

  it('answers every route 401 to a visitor and 403 auth/forbidden to a rider, changing nothing', async () => {
    for (const reply of await productRequests(new Client(server.url))) expectError(reply, 401, 'auth/unauthenticated');
    for (const reply of await productRequests(await rider())) expectError(reply, 403, 'auth/forbidden');
    expect((await productOf('1')).product).toMatchObject({ name: 'Anky Bridle', version: 1 });
  });

  it('refuses a change from another site, as every other route', async () => {
    const product = (await productOf('2')).product;
    const reply = await owner.json('PUT', '/api/admin/products/2', formOf(product, { priceCents: 1 }), {
      origin: 'https://evil.example',
    });
    expectError(reply, 403, 'request/cross-origin');
  });
});

describe("the owner's catalogue: products", () => {
  it('starts with the eight products of part one, in order, each with its sizes, shown, at version 1', async () => {
    const { products } = (await owner.json('GET', '/api/admin/products')).body as { products: AdminProduct[] };
    expect(products.slice(0, 8).map((p) => [p.itemid, p.name, p.priceCents, p.pic, p.shown, p.version])).toEqual(
      firstCatalogue.map((p) => [p.itemid, p.name, p.priceCents, p.pic, true, 1]),
    );
    for (const product of products.slice(0, 8)) {
      expect(product.sizes.map((s) => s.size)).toEqual(firstSizes[product.itemid]?.sizes);
    }
  });

  it('saves a new name, details and price: a new version, the home page, its history', async () => {
    const product = await newProduct();
    const reply = await save(product, { name: 'Competition Numnah', details: 'White.\nQuilted.', priceCents: 5250 });
    expect(reply.status).toBe(200);
    expect(reply.body.product).toMatchObject({ name: 'Competition Numnah', priceCents: 5250, version: 2 });
    expect((await shownProducts()).find((p) => p.itemid === product.itemid)).toMatchObject({
      name: 'Competition Numnah',
      details: 'White.\nQuilted.',
      priceCents: 5250,
    });
    const { history } = await productOf(product.itemid);
    expect(history[0]).toMatchObject({
      by: owner.user?.email,
      what: 'Name “Schooling Numnah” → “Competition Numnah”; Details changed; Price $45.00 → $52.50',
    });
    expect(history.at(-1)?.what).toBe('Added');
  });

  it('refuses each value of the rules with 400 product/invalid next to its field, saving nothing', async () => {
    const product = await newProduct();
    const size = (stock: number) => [{ size: 'One size', stock, stockShown: 10 }];
    const wrong: [string, Partial<Form>, string][] = [
      ['an empty name', { name: '  ' }, 'name'],
      ['a name over 80 characters', { name: 'N'.repeat(81) }, 'name'],
      ['a name on two lines', { name: 'Two\nlines' }, 'name'],
      ['a name of invisible marks only', { name: '\u200b\u200d' }, 'name'],
      ['half of a character', { name: 'Numnah \ud800' }, 'name'],
      ['details over 1,000 characters', { details: 'd'.repeat(1001) }, 'details'],
      ['a price of zero', { priceCents: 0 }, 'priceCents'],
      ['a price over $100,000.00', { priceCents: 10_000_001 }, 'priceCents'],
      ['a price that is not whole cents', { priceCents: 12.5 }, 'priceCents'],
      ['stock below 0', { sizes: size(-1) }, 'sizes.0.stock'],
      ['stock over 100,000', { sizes: size(100_001) }, 'sizes.0.stock'],
      ['no size at all', { sizes: [] }, 'sizes'],
      [
        'two sizes of one name',
        {
          sizes: [
            { size: 'Full', stock: 1 },
            { size: 'full', stock: 1 },
          ],
        },
        'sizes.1.size',
      ],
      ['an empty size', { sizes: [{ size: '', stock: 1 }] }, 'sizes.0.size'],
      // PostgreSQL's text takes no NUL: it must never reach a query.
      [
        'a renamed size with a NUL in it',
        { sizes: [{ size: 'One size', stock: 1, was: 'One\u0000size' }] },
        'sizes.0.was',
      ],
    ];
    for (const [what, changes, field] of wrong) {
      const reply = await save(product, changes);
      expectError(reply, 400, 'product/invalid');
      expect(reply.body.field, what).toBe(field);
    }
    const after = await productOf(product.itemid);
    expect(after.product).toEqual(product);
    expect(after.history).toHaveLength(1);
  });

  it('answers 404 product/not-found for a product that does not exist, by every route', async () => {
    const product = await newProduct();
    for (const itemid of ['99999', 'abc', '1.5', '-1']) {
      expectError(await owner.json('GET', `/api/admin/products/${itemid}`), 404, 'product/not-found');
      expectError(await owner.json('PUT', `/api/admin/products/${itemid}`, formOf(product)), 404, 'product/not-found');
      expectError(await upload(itemid, await jpegPicture()), 404, 'product/not-found');
    }
  });

  it("refuses a size that is not the product's (another product's) with 400 product/unknown-size", async () => {
    const product = await newProduct();
    const reply = await save(product, { sizes: [{ size: 'Warmblood', stock: 1, was: 'Warmblood' }] });
    expectError(reply, 400, 'product/unknown-size');
    expect((await productOf(product.itemid)).product.sizes).toEqual([{ size: 'One size', stock: 10 }]);
  });

  it('lets one of ten owners saving the same version at once win; the others are told it changed', async () => {
    const product = await newProduct();
    const second = await ownerClient();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => save(product, { priceCents: 5000 + i }, i % 2 ? second : owner)),
    );
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200)) expectError(reply, 409, 'product/changed');
    const after = await productOf(product.itemid);
    expect(after.product.version).toBe(2);
    expect(after.product.priceCents).toBe(won[0]?.body.product.priceCents);
    expect(after.history).toHaveLength(2);
  });

  it('adds products with the next item numbers, at the end of the home page; ten at once take ten numbers', async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        owner.json('POST', '/api/admin/products', {
          name: `Saddle Pad ${i}`,
          details: '',
          priceCents: 3000,
          shown: false,
          sizes: [{ size: 'Full', stock: i }],
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = replies.map((r) => Number(r.body.product.itemid));
    expect(new Set(ids).size).toBe(10);
    const { products } = (await owner.json('GET', '/api/admin/products')).body as { products: AdminProduct[] };
    expect(products.map((p) => p.position)).toEqual(products.map((_, i) => i + 1));
    expect(products.slice(-10).map((p) => Number(p.itemid))).toEqual([...ids].sort((a, b) => a - b));
    // Hidden: not on the home page.
    const shown = await shownProducts();
    for (const id of ids) expect(shown.some((p) => p.itemid === String(id))).toBe(false);
  });

  it('puts the home page in the order given; an order that does not name every product once is refused', async () => {
    const a = await newProduct({ name: 'Fly Veil A' });
    const b = await newProduct({ name: 'Fly Veil B' });
    const { products } = (await owner.json('GET', '/api/admin/products')).body as { products: AdminProduct[] };
    const ids = products.map((p) => p.itemid);
    const swapped = ids.map((id) => (id === a.itemid ? b.itemid : id === b.itemid ? a.itemid : id));
    for (const itemids of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), '99999']]) {
      expectError(await owner.json('PUT', '/api/admin/product-order', { itemids }), 400, 'product/not-every-product');
    }
    expectError(await owner.json('PUT', '/api/admin/product-order', { itemids: [] }), 400, 'request/invalid-body');
    const reply = await owner.json('PUT', '/api/admin/product-order', { itemids: swapped });
    expect(reply.status).toBe(200);
    const order = (await shownProducts()).map((p) => p.itemid);
    expect(order.indexOf(b.itemid)).toBeLessThan(order.indexOf(a.itemid));
    expect(order.slice(0, 8)).toEqual(firstCatalogue.map((p) => p.itemid));
    expect((await productOf(a.itemid)).history[0]?.what).toMatch(/^Moved from place \d+ to \d+ on the home page$/);
  });
});

describe("the owner's catalogue: sizes and stock", () => {
  it('adds, renames, removes and reorders sizes and sets stock; a renamed size keeps its rows in carts', async () => {
    const product = await newProduct({
      sizes: [
        { size: 'S', stock: 3 },
        { size: 'M', stock: 3 },
        { size: 'L', stock: 3 },
      ],
    });
    const client = await rider();
    const rowM = await client.add(product.itemid, 'M');
    const rowL = await client.add(product.itemid, 'L');
    const reply = await save(product, {
      sizes: [
        { size: 'Medium', was: 'M', stock: 7, stockShown: 3 },
        { size: 'S', stock: 3, stockShown: 3 },
        { size: 'XL', stock: 2 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.product.sizes).toEqual([
      { size: 'Medium', stock: 7 },
      { size: 'S', stock: 3 },
      { size: 'XL', stock: 2 },
    ]);
    const cart = await client.cart();
    expect(cart.find((r) => r.id === rowM.id)).toMatchObject({ size: 'Medium', available: true });
    expect(cart.find((r) => r.id === rowL.id)).toMatchObject({ size: 'L', available: false });
    expect((await productOf(product.itemid)).history[0]?.what).toBe(
      'Size “M” renamed “Medium”; Stock of “Medium” 3 → 7; Size “XL” added, 2 in stock; Size “L” removed; Sizes reordered',
    );
    // The removed size's row is refused at checkout until it is removed; the renamed one is ordered in its new name.
    const refused = await client.placeOrder();
    expectError(refused, 409, 'order/unavailable');
    expect(refused.body.rows).toEqual([rowL.id]);
    await client.json('DELETE', `/api/cart/${rowL.id}`);
    const placed = await client.placeOrder();
    expect(placed.status).toBe(201);
    expect(placed.body.order.lines).toMatchObject([{ itemid: product.itemid, size: 'Medium' }]);
  });

  it('swaps the names of two sizes, in the shop and in carts', async () => {
    const product = await newProduct({
      sizes: [
        { size: 'Cob', stock: 1 },
        { size: 'Full', stock: 2 },
      ],
    });
    const client = await rider();
    const row = await client.add(product.itemid, 'Cob');
    const reply = await save(product, {
      sizes: [
        { size: 'Full', was: 'Cob', stock: 1, stockShown: 1 },
        { size: 'Cob', was: 'Full', stock: 2, stockShown: 2 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.product.sizes).toEqual([
      { size: 'Full', stock: 1 },
      { size: 'Cob', stock: 2 },
    ]);
    expect((await client.cart()).find((r) => r.id === row.id)?.size).toBe('Full');
  });

  it('renames a size and adds a new one of its old name in one save', async () => {
    const product = await newProduct({
      sizes: [
        { size: 'M', stock: 3 },
        { size: 'S', stock: 3 },
      ],
    });
    const reply = await save(product, {
      sizes: [
        { size: 'L', was: 'M', stock: 3, stockShown: 3 },
        { size: 'M', stock: 9 },
        { size: 'S', stock: 3, stockShown: 3 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.product.sizes).toEqual([
      { size: 'L', stock: 3 },
      { size: 'M', stock: 9 },
      { size: 'S', stock: 3 },
    ]);
    expect((await productOf(product.itemid)).history[0]?.what).toBe('Size “M” renamed “L”; Size “M” added, 9 in stock');
  });

  it("gives a cancelled order's stock back to the size it was taken from, whatever that size is called now", async () => {
    const product = await newProduct({
      sizes: [
        { size: 'Cob', stock: 5 },
        { size: 'Full', stock: 5 },
      ],
    });
    const client = await rider();
    await client.add(product.itemid, 'Cob');
    const { order } = (await client.placeOrder()).body;
    const swapped = await save(product, {
      sizes: [
        { size: 'Full', was: 'Cob', stock: 4, stockShown: 4 },
        { size: 'Cob', was: 'Full', stock: 5, stockShown: 5 },
      ],
    });
    expect(swapped.status).toBe(200);
    expect((await client.json('POST', `/api/orders/${order.number}/cancel`)).status).toBe(200);
    // The unit goes back to the size the rider took it from, now called Full.
    expect((await productOf(product.itemid)).product.sizes).toEqual([
      { size: 'Full', stock: 5 },
      { size: 'Cob', stock: 5 },
    ]);
    // And a size removed and added again under the old name is another size: it takes nothing back.
    const again = await rider();
    await again.add(product.itemid, 'Cob');
    const second = (await again.placeOrder()).body.order;
    const removed = await save((await productOf(product.itemid)).product, {
      sizes: [{ size: 'Full', stock: 5, stockShown: 5 }],
    });
    await save(removed.body.product, {
      sizes: [
        { size: 'Full', stock: 5, stockShown: 5 },
        { size: 'Cob', stock: 7 },
      ],
    });
    expect((await productOf(product.itemid)).product.sizes).toEqual([
      { size: 'Full', stock: 5 },
      { size: 'Cob', stock: 7 },
    ]);
    await again.json('POST', `/api/orders/${second.number}/cancel`);
    expect((await productOf(product.itemid)).product.sizes).toEqual([
      { size: 'Full', stock: 5 },
      { size: 'Cob', stock: 7 },
    ]);
  });

  it('keeps what orders took while the form was open, unless the owner changed that stock', async () => {
    const product = await newProduct({
      sizes: [
        { size: 'S', stock: 10 },
        { size: 'M', stock: 10 },
      ],
    });
    const client = await rider();
    await client.add(product.itemid, 'S');
    await client.add(product.itemid, 'M');
    expect((await client.placeOrder()).status).toBe(201);
    // The form still shows 10 of each: S untouched, M counted again as 4.
    const reply = await save(product, {
      priceCents: 4600,
      sizes: [
        { size: 'S', stock: 10, stockShown: 10 },
        { size: 'M', stock: 4, stockShown: 10 },
      ],
    });
    expect(reply.body.product.sizes).toEqual([
      { size: 'S', stock: 9 },
      { size: 'M', stock: 4 },
    ]);
  });

  it('a size ever ordered can be removed; its order lines still read right', async () => {
    const product = await newProduct({ sizes: [{ size: 'Pony', stock: 5 }] });
    const client = await rider();
    await client.add(product.itemid, 'Pony');
    const { order } = (await client.placeOrder()).body;
    const reply = await save(product, { sizes: [{ size: 'Cob', stock: 5 }] });
    expect(reply.status).toBe(200);
    const again = (await client.json('GET', `/api/orders/${order.number}`)).body.order;
    expect(again.lines).toMatchObject([{ itemid: product.itemid, name: 'Schooling Numnah', size: 'Pony' }]);
  });
});

describe("the owner's catalogue: carts and checkout", () => {
  it('gives the rows in carts a new price at once, live; placed orders keep theirs; checkout sees the change', async () => {
    const product = await newProduct();
    const client = await rider();
    const earlier = await client.order(product.itemid);
    await client.add(product.itemid);
    const seenItems = await client.cart();
    const stream = await EventStream.open(client);
    try {
      await stream.next('snapshot');
      expect((await save(product, { priceCents: 9900 })).status).toBe(200);
      const update = await stream.next('snapshot', 3000, 1);
      expect(update.items.map((i) => i.priceCents)).toEqual([9900]);
    } finally {
      stream.close();
    }
    expect((await client.cart()).map((i) => i.priceCents)).toEqual([9900]);
    // The checkout page showed the old total: the order is refused until the rider has seen the new one.
    const oldTotal = seenItems[0]?.priceCents ?? 0;
    const shipping = (await client.json('GET', `/api/orders/${earlier.number}`)).body.order.money.shippingCents;
    expectError(await client.placeOrder({ totalCents: oldTotal + shipping }), 409, 'order/cart-changed');
    const placed = await client.placeOrder({ totalCents: 9900 + shipping });
    expect(placed.status).toBe(201);
    expect(placed.body.order.lines.map((l: { priceCents: number }) => l.priceCents)).toEqual([9900]);
    const before = (await client.json('GET', `/api/orders/${earlier.number}`)).body.order;
    expect(before.lines.map((l: { priceCents: number }) => l.priceCents)).toEqual([4500]);
  });

  it('never leaves a row at the old price: adds racing a price change, twenty rounds', async () => {
    for (let round = 0; round < 20; round++) {
      const product = await newProduct();
      const riders = await Promise.all(Array.from({ length: 4 }, () => rider()));
      const [saved] = await Promise.all([
        save(product, { priceCents: 9999 }),
        ...riders.map((r) => r.json('POST', '/api/cart', { itemid: product.itemid, size: 'One size' })),
      ]);
      expect(saved.status).toBe(200);
      for (const r of riders) expect((await r.cart()).map((i) => i.priceCents)).toEqual([9999]);
    }
  }, 60_000);

  it('takes a hidden product off the home page; its rows say so and checkout refuses them until removed', async () => {
    const product = await newProduct();
    const client = await rider();
    const row = await client.add(product.itemid);
    const hidden = await save(product, { shown: false });
    expect(hidden.body.product.shown).toBe(false);
    expect((await shownProducts()).some((p) => p.itemid === product.itemid)).toBe(false);
    expect((await client.cart()).map((r) => r.available)).toEqual([false]);
    expectError(
      await client.json('POST', '/api/cart', { itemid: product.itemid, size: 'One size' }),
      409,
      'cart/unavailable',
    );
    const refused = await client.placeOrder();
    expectError(refused, 409, 'order/unavailable');
    expect(refused.body.rows).toEqual([row.id]);

    // Shown again: the same row can be ordered.
    expect((await save(hidden.body.product, { shown: true })).status).toBe(200);
    expect((await client.cart()).map((r) => r.available)).toEqual([true]);
    expect((await client.placeOrder()).status).toBe(201);
    const { history } = await productOf(product.itemid);
    expect(history.slice(0, 2).map((h) => h.what)).toEqual(['Shown on the home page', 'Hidden from the home page']);
  });

  it("tells the home pages' live streams the new products", async () => {
    const client = await rider();
    const stream = await openStockStream(client);
    try {
      const first = await stream.next('products');
      expect(first.products.slice(0, 8).map((p) => p.itemid)).toEqual(firstCatalogue.map((p) => p.itemid));
      const product = await newProduct({ name: 'Ear Bonnet' });
      const next = await stream.next('products', 3000, 1);
      expect(next.products.at(-1)).toMatchObject({ itemid: product.itemid, name: 'Ear Bonnet', priceCents: 4500 });
    } finally {
      stream.close();
    }
  });

  it("gives everything to a stream opened with the version of a home page from before the owner's change", async () => {
    const client = await rider();
    const versionOfHome = async () => {
      const html = String((await client.raw('GET', '/home')).body);
      const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? '';
      return encodeURIComponent(JSON.parse(data).catalogue.version);
    };
    const before = await versionOfHome();
    expect(await versionOfHome()).toBe(before);
    // The home page in another order: a change of the products alone, no size's stock.
    const { products } = (await owner.json('GET', '/api/admin/products')).body as { products: AdminProduct[] };
    const itemids = products.map((p) => p.itemid);
    const reordered = [itemids[1], itemids[0], ...itemids.slice(2)];
    expect((await owner.json('PUT', '/api/admin/product-order', { itemids: reordered })).status).toBe(200);
    expect(await versionOfHome()).not.toBe(before);
    const stream = await EventStream.open<StockEvent>(client, `/api/catalogue/stream?known=${before}`);
    try {
      const sent = await stream.next('products');
      expect(sent.products.slice(0, 2).map((p) => p.itemid)).toEqual(reordered.slice(0, 2));
    } finally {
      stream.close();
      await owner.json('PUT', '/api/admin/product-order', { itemids });
    }
  });
});

describe("the owner's catalogue: pictures", () => {
  it('makes a WebP thumbnail and large picture of a JPEG, PNG or WebP, served under URLs of their content', async () => {
    const product = await newProduct();
    for (const [type, picture] of [
      ['image/jpeg', await jpegPicture(1200, 900)],
      ['image/png', await pngPicture(640, 480)],
      ['image/webp', await webpPicture(800, 800)],
    ] as const) {
      const reply = await upload(product.itemid, picture, type);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const { pic, largepic } = reply.body.product as AdminProduct;
      expect(pic).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      expect(largepic).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
      const thumb = await new Client(server.url).raw('GET', pic);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      expect(thumb.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const large = await fetch(server.url + largepic);
      const bytes = Buffer.from(await large.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1600);
    }
    const shown = (await shownProducts()).find((p) => p.itemid === product.itemid);
    expect(shown?.pic).toMatch(/^\/media\//);
    expect((await productOf(product.itemid)).history[0]?.what).toBe('New picture');
    // Its page shows the new picture first, as its card does (docs/product.md §22).
    const page = await new Client(server.url).json('GET', `/api/products/${shown?.slug}`);
    expect(page.body.product.pictures).toEqual([{ pic: shown?.pic, largepic: shown?.largepic }]);
  });

  it("strips the picture's metadata (a camera's EXIF, a place)", async () => {
    const product = await newProduct();
    const reply = await upload(product.itemid, await jpegWithExif());
    const large = Buffer.from(await (await fetch(server.url + reply.body.product.largepic)).arrayBuffer());
    expect((await sharp(large).metadata()).exif).toBeUndefined();
    expect(large.includes('Secret GPS place')).toBe(false);
  });

  it('refuses what is not a still JPEG, PNG or WebP, by its content, whatever its type says', async () => {
    const product = await newProduct();
    for (const [what, body, code] of [
      ['a text file sent as a JPEG', textNamedJpg(), 'picture/invalid'],
      ['an animated WebP', await animatedWebp(), 'picture/invalid'],
      ['a PNG that claims 50,000 × 50,000 pixels', decompressionBomb(), 'picture/invalid'],
    ] as const) {
      const reply = await upload(product.itemid, body);
      expectError(reply, 415, code);
      expect(reply.body.message, what).toMatch(/JPEG|megapixels|Animated/);
    }
    expect((await productOf(product.itemid)).product.version).toBe(1);
  });

  it('refuses a file over 5 MB, from its length before reading it, or once it grows past the limit', async () => {
    const product = await newProduct();
    const big = new Uint8Array(productLimits.pictureMaxBytes + 1);
    expectError(await upload(product.itemid, big), 413, 'picture/too-large');
    // Sent without a Content-Length (chunked): refused as soon as it passes the limit.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const reply = await owner.raw('PUT', `/api/admin/products/${product.itemid}/picture`, {
      body: chunks,
      headers: { 'content-type': 'image/png' },
    });
    expectError(reply, 413, 'picture/too-large');
  });

  it('answers a picture that does not exist with 404, and a HEAD as a GET without its body', async () => {
    const product = await newProduct();
    const { pic } = (await upload(product.itemid, await jpegPicture())).body.product as AdminProduct;
    const head = await owner.raw('HEAD', pic);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/webp');
    expect(head.body).toBeUndefined();
    for (const path of [`/media/${'0'.repeat(64)}.webp`, '/media/x.webp', '/media/..%2Fshop.db']) {
      expect((await owner.raw('GET', path)).status).toBe(404);
    }
  });
});

describe("the owner's catalogue: cleaning unused pictures", () => {
  const idOf = (url: string) => url.slice('/media/'.length, -'.webp'.length);
  const served = async (url: string) => (await new Client(server.url).raw('GET', url)).status;
  /** Makes the pictures look as if they had last been uploaded `hours` ago. */
  const age = (urls: string[], hours: number) =>
    server.db.kysely
      .updateTable('picture')
      .set({ created_at: Date.now() - hours * 3_600_000 })
      .where('id', 'in', urls.map(idOf))
      .execute();
  // Sizes no other test uses: one picture row serves every product with the same bytes.
  const pictureOf = async (itemid: string, picture: Buffer) => {
    const reply = await upload(itemid, picture);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { pic, largepic } = reply.body.product as AdminProduct;
    return [pic, largepic];
  };

  it('deletes the pictures no product uses a day after their last upload, and none that a product shows or hides', async () => {
    const shown = await newProduct();
    const hidden = await newProduct({ shown: false });
    const replaced = await pictureOf(shown.itemid, await jpegPicture(401, 301));
    const current = await pictureOf(shown.itemid, await jpegPicture(801, 301));
    const onHidden = await pictureOf(hidden.itemid, await jpegPicture(301, 601));
    // Replaced a moment ago, but uploaded less than a day ago: kept.
    expect(await deleteUnusedPictures(server.db, Date.now())).toBe(0);
    await age([...replaced, ...current, ...onHidden], 25);
    expect(await deleteUnusedPictures(server.db, Date.now())).toBe(2);
    for (const url of replaced) expect(await served(url), url).toBe(404);
    for (const url of [...current, ...onHidden]) expect(await served(url), url).toBe(200);
    expect(await deleteUnusedPictures(server.db, Date.now())).toBe(0);
  });

  it("keeps a picture found unused that a product is given again before the delete (another server's upload)", async () => {
    const product = await newProduct();
    const picture = await jpegPicture(501, 501);
    const first = await pictureOf(product.itemid, picture);
    await pictureOf(product.itemid, await jpegPicture(901, 501));
    await age(first, 25);
    const found = await unusedPictures(server.db, Date.now());
    expect(found).toEqual(expect.arrayContaining(first.map(idOf)));
    // Between this server's look and its delete, the owner puts the first picture back through another server.
    expect(await pictureOf(product.itemid, picture)).toEqual(first);
    await deletePictures(server.db, found, Date.now());
    for (const url of first) expect(await served(url), url).toBe(200);
  });
});
