import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import type { AdminCategory } from '../../src/shared/categories';
import type { ProductPage, SizeGuide } from '../../src/shared/finding';
import { findingLimits } from '../../src/shared/limits';
import type { AdminProduct } from '../../src/shared/products';
import { Client, confirmedRider, type Reply } from '../support/client';
import { expectError } from '../support/expect-error';
import { jpegPicture, pngPicture, webpPicture } from '../support/pictures';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The owner's side of finding products (docs/product.md §22): categories, a product's categories and size guide, and
 * its pictures, on the backend under test.
 */
let server: TestServer;
let owner: Client;
let visitor: Client;
beforeAll(async () => {
  server = await startTestServer();
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
  visitor = new Client(server.url);
});
afterAll(async () => {
  await server?.stop();
});

const guide: SizeGuide = {
  columns: ['Size', 'Chest'],
  rows: [
    ['S', '86 cm'],
    ['M', '94 cm'],
  ],
};

async function categories(): Promise<AdminCategory[]> {
  const reply = await owner.json('GET', '/api/admin/categories');
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.categories;
}

async function category(slug: string): Promise<AdminCategory> {
  const found = (await categories()).find((c) => c.slug === slug);
  if (!found) throw new Error(`no category ${slug}`);
  return found;
}

async function addCategory(name: string, sizeGuide: SizeGuide | null = null): Promise<AdminCategory> {
  const reply = await owner.json('POST', '/api/admin/categories', { name, sizeGuide });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.category;
}

async function product(itemid: string): Promise<{ product: AdminProduct; history: { what: string }[] }> {
  return (await owner.json('GET', `/api/admin/products/${itemid}`)).body;
}

function formOf(p: AdminProduct, changes: Record<string, unknown> = {}) {
  return {
    name: p.name,
    details: p.details,
    priceCents: p.priceCents,
    shown: p.shown,
    sizes: p.sizes.map((s) => ({ size: s.size, stock: s.stock, stockShown: s.stock })),
    categories: p.categories,
    sizeGuide: p.sizeGuide,
    version: p.version,
    ...changes,
  };
}

async function newProduct(name: string, extra: Record<string, unknown> = {}): Promise<AdminProduct> {
  const reply = await owner.json('POST', '/api/admin/products', {
    name,
    details: '',
    priceCents: 1000,
    shown: true,
    sizes: [{ size: 'M', stock: 3 }],
    ...extra,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.product;
}

async function list(query: string): Promise<ProductPage> {
  const reply = await visitor.json('GET', `/api/products?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const addPicture = async (itemid: string, body: Buffer, type = 'image/jpeg', client = owner): Promise<Reply> =>
  client.raw('POST', `/api/admin/products/${itemid}/pictures`, {
    body: new Uint8Array(body),
    headers: { 'content-type': type },
  });

describe('categories', () => {
  it('adds one last, with a slug of its name, and refuses a name another has', async () => {
    const added = await addCategory('Spurs & Whips', guide);
    expect(added).toMatchObject({ slug: 'spurs-whips', name: 'Spurs & Whips', products: 0, sizeGuide: guide });
    expect((await categories()).at(-1)?.slug).toBe('spurs-whips');
    expect((await list('')).categories.map((c) => c.name)).toContain('Spurs & Whips');
    const twice = await owner.json('POST', '/api/admin/categories', { name: 'spurs & whips' });
    expectError(twice, 400, 'category/invalid', 'Another category already has this name.');
    expect(twice.body.field).toBe('name');
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required.'],
    [{ name: 'x'.repeat(findingLimits.categoryNameMax + 1) }, 'name', 'Name must be at most 40 characters.'],
    [{ name: 'Two\nlines' }, 'name', 'Name must be on one line, without control characters.'],
  ])('refuses the form %j with a field error', async (body, field, message) => {
    const reply = await owner.json('POST', '/api/admin/categories', body);
    expectError(reply, 400, 'category/invalid', message);
    expect(reply.body.field).toBe(field);
  });

  it('renames one: its slug stays, its products are found by the new name and not the old, each history says so', async () => {
    const whips = await addCategory('Lunging Gear');
    const lunge = await newProduct('Practice Line', { categories: [whips.slug] });
    expect((await list('q=lunging')).products.map((p) => p.itemid)).toEqual([lunge.itemid]);
    const current = await category(whips.slug);
    const reply = await owner.json('PUT', `/api/admin/categories/${whips.slug}`, {
      name: 'Groundwork Tack',
      sizeGuide: null,
      version: current.version,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.category).toMatchObject({ slug: 'lunging-gear', name: 'Groundwork Tack', products: 1 });
    expect((await list('q=groundwork')).products.map((p) => p.itemid)).toEqual([lunge.itemid]);
    expect((await list('q=lunging')).products).toEqual([]);
    expect((await list('category=lunging-gear')).products.map((p) => p.itemid)).toEqual([lunge.itemid]);
    expect((await product(lunge.itemid)).history[0]?.what).toBe('Category “Lunging Gear” renamed “Groundwork Tack”');
    // The form filled before the rename is stale now.
    const stale = await owner.json('PUT', `/api/admin/categories/${whips.slug}`, {
      name: 'Lunging',
      sizeGuide: null,
      version: current.version,
    });
    expectError(stale, 409, 'category/changed');
    expect((await category(whips.slug)).name).toBe('Groundwork Tack');
  });

  it('reorders them: every slug once, or nothing changes', async () => {
    const slugs = (await categories()).map((c) => c.slug);
    const reversed = [...slugs].reverse();
    const reply = await owner.json('PUT', '/api/admin/category-order', { slugs: reversed });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.categories.map((c: AdminCategory) => c.slug)).toEqual(reversed);
    expect((await list('')).categories.map((c) => c.slug)).toEqual(reversed);
    for (const wrong of [reversed.slice(1), [...reversed, 'bridles'], [...reversed.slice(1), 'no-such']]) {
      expectError(
        await owner.json('PUT', '/api/admin/category-order', { slugs: wrong }),
        400,
        'category/not-every-category',
      );
    }
    expect((await categories()).map((c) => c.slug)).toEqual(reversed);
    await owner.json('PUT', '/api/admin/category-order', { slugs });
  });

  it('removes one with products only once the owner confirms; its products stay in the shop, a version further', async () => {
    const pads = await category('saddle-pads');
    expect(pads.products).toBe(1);
    const refused = await owner.json('DELETE', `/api/admin/categories/saddle-pads?version=${pads.version}`);
    expectError(refused, 409, 'category/has-products', /^This category has 1 product\. Confirm/);
    expect((await list('category=saddle-pads')).total).toBe(1);
    const before = (await product('6')).product;
    const removed = await owner.json(
      'DELETE',
      `/api/admin/categories/saddle-pads?version=${pads.version}&withProducts=1`,
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.categories.map((c: AdminCategory) => c.slug)).not.toContain('saddle-pads');
    const after = await product('6');
    expect(after.product).toMatchObject({ categories: [], version: before.version + 1, shown: true });
    expect(after.history[0]?.what).toBe('Category “Saddle pads” removed: no longer in it');
    // Still on the list and found by its own name, no longer by the category's.
    expect((await list('q=crochet')).products.map((p) => p.itemid)).toEqual(['6']);
    expect((await list('q=pads')).products).toEqual([]);
    expect((await list('category=saddle-pads')).products).toEqual([]);
    expectError(
      await owner.json('DELETE', `/api/admin/categories/saddle-pads?version=${pads.version}`),
      404,
      'category/not-found',
    );
  });

  it('removes an empty one at once; a stale version is refused', async () => {
    const empty = await addCategory('Fly Masks');
    expectError(await owner.json('DELETE', '/api/admin/categories/fly-masks?version=old'), 409, 'category/changed');
    const reply = await owner.json('DELETE', `/api/admin/categories/fly-masks?version=${empty.version}`);
    expect(reply.status).toBe(200);
    expect((await categories()).map((c) => c.slug)).not.toContain('fly-masks');
  });
});

describe("a product's categories and size guide", () => {
  it('saves them with the product, in its history; an unknown category is a field error', async () => {
    const { product: boots } = await product('5');
    const reply = await owner.json(
      'PUT',
      '/api/admin/products/5',
      formOf(boots, { categories: ['boots', 'jackets'], sizeGuide: guide }),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.product).toMatchObject({ categories: ['boots', 'jackets'], sizeGuide: guide });
    expect((await product('5')).history[0]?.what).toBe('Size guide written; Categories: “Boots”, “Jackets”');
    expect((await list('category=jackets')).products.map((p) => p.itemid)).toContain('5');
    const slug = (await list('category=jackets')).products.find((p) => p.itemid === '5')?.slug;
    const page = await visitor.json('GET', `/api/products/${slug}`);
    expect(page.body.product.sizeGuide).toEqual(guide);

    const saved = reply.body.product as AdminProduct;
    const unknown = await owner.json('PUT', '/api/admin/products/5', formOf(saved, { categories: ['no-such'] }));
    expectError(unknown, 400, 'product/invalid', 'There is no category “no-such”.');
    expect(unknown.body.field).toBe('categories');
    const back = await owner.json(
      'PUT',
      '/api/admin/products/5',
      formOf(saved, { categories: ['boots'], sizeGuide: null }),
    );
    expect(back.status).toBe(200);
    expect((await product('5')).history[0]?.what).toBe('Size guide removed; Categories: “Boots”');
  });

  it('puts a new product in its categories as it is added; an unknown one is a field error and nothing is added', async () => {
    const coat = await newProduct('Tweed Show Coat', { categories: ['jackets', 'boots'] });
    expect(coat.categories).toEqual(['boots', 'jackets']);
    expect((await product(coat.itemid)).product.categories).toEqual(['boots', 'jackets']);
    expect((await list('category=jackets')).products.map((p) => p.itemid)).toContain(coat.itemid);

    const unknown = await owner.json('POST', '/api/admin/products', {
      name: 'Phantom Gilet',
      details: '',
      priceCents: 1000,
      shown: true,
      sizes: [{ size: 'M', stock: 3 }],
      categories: ['jackets', 'no-such'],
    });
    expectError(unknown, 400, 'product/invalid', 'There is no category “no-such”.');
    expect(unknown.body.field).toBe('categories');
    expect((await list('q=phantom')).products).toEqual([]);
  });

  it('refuses a stale form', async () => {
    const { product: p } = await product('6');
    expect((await owner.json('PUT', '/api/admin/products/6', formOf(p, { categories: ['boots'] }))).status).toBe(200);
    expectError(
      await owner.json('PUT', '/api/admin/products/6', formOf(p, { categories: ['jackets'] })),
      409,
      'product/changed',
    );
  });

  const cells = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
  it.each([
    ['one column', { columns: ['Size'], rows: [['S']] }, 'sizeGuide.columns', 'A size guide has 2 to 6 columns'],
    ['seven columns', { columns: cells(7), rows: [cells(7)] }, 'sizeGuide.columns', 'A size guide has 2 to 6 columns'],
    ['no rows', { columns: ['Size', 'Chest'], rows: [] }, 'sizeGuide.rows', 'A size guide has 1 to 30 rows'],
    [
      'thirty-one rows',
      { columns: ['Size', 'Chest'], rows: Array.from({ length: 31 }, () => ['S', '1']) },
      'sizeGuide.rows',
      'A size guide has 1 to 30 rows',
    ],
    ['a short row', { columns: ['Size', 'Chest'], rows: [['S']] }, 'sizeGuide.rows', 'the same in every row'],
    ['a long cell', { columns: ['Size', 'x'.repeat(41)], rows: [['S', '1']] }, 'sizeGuide.columns.1', 'at most 40'],
    ['a line break', { columns: ['Size', 'Chest'], rows: [['S', '8\n6']] }, 'sizeGuide.rows.0.1', 'one line'],
    ['HTML as a number', { columns: ['Size', 'Chest'], rows: [['S', 86]] }, 'sizeGuide.rows.0.1', 'one line'],
  ])('refuses a size guide with %s, saying where', async (_, sizeGuide, field, message) => {
    const { product: p } = await product('7');
    const reply = await owner.json('PUT', '/api/admin/products/7', formOf(p, { sizeGuide }));
    expectError(reply, 400, 'product/invalid');
    expect(reply.body.field).toBe(field);
    expect(reply.body.message).toContain(message);
    const forCategory = await owner.json('POST', '/api/admin/categories', { name: 'Guides', sizeGuide });
    expectError(forCategory, 400, 'category/invalid');
    expect(forCategory.body.field).toBe(field);
  });

  it('keeps markup as the text the owner typed', async () => {
    const { product: p } = await product('7');
    const markup = { columns: ['Size', '<b>Chest</b>'], rows: [['<script>x</script>', '86']] };
    const reply = await owner.json('PUT', '/api/admin/products/7', formOf(p, { sizeGuide: markup }));
    expect(reply.status).toBe(200);
    expect(
      (await visitor.json('GET', `/api/products/${(await list('q=dakota')).products[0]?.slug}`)).body.product.sizeGuide,
    ).toEqual(markup);
  });
});

describe("a product's pictures", () => {
  it('adds pictures after the first (the stand-in goes), up to eight; the ninth is refused', async () => {
    const p = await newProduct('Gallery Saddle');
    expect(p.pictures).toEqual([{ pic: '/pictures/no-picture-thumb.svg', largepic: '/pictures/no-picture.svg' }]);
    const first = await addPicture(p.itemid, await jpegPicture(400, 300));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.product.pictures).toHaveLength(1);
    expect(first.body.product.pic).toBe(first.body.product.pictures[0].pic);
    for (let n = 2; n <= findingLimits.picturesMax; n += 1) {
      const reply = await addPicture(p.itemid, await pngPicture(300 + n, 200), 'image/png');
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.product.pictures).toHaveLength(n);
    }
    expectError(await addPicture(p.itemid, await webpPicture(), 'image/webp'), 409, 'picture/too-many');
    const { product: now, history } = await product(p.itemid);
    expect(now.pictures).toHaveLength(8);
    expect(history[0]?.what).toBe('Picture 8 added');
    expectError(await addPicture(p.itemid, Buffer.from('not a picture')), 415, 'picture/invalid');
    expectError(await addPicture('99999', await jpegPicture()), 404, 'product/not-found');
  });

  it('reorders and removes them: the first is the card’s; the rider’s page shows the same order', async () => {
    const p = await newProduct('Ordered Saddle');
    await addPicture(p.itemid, await jpegPicture(400, 300));
    const added = (await addPicture(p.itemid, await jpegPicture(500, 300))).body.product as AdminProduct;
    await addPicture(p.itemid, await jpegPicture(600, 300));
    const { product: three } = await product(p.itemid);
    const [a, b, c] = three.pictures;
    expect(b).toEqual(added.pictures[1]);
    const reply = await owner.json('PUT', `/api/admin/products/${p.itemid}/pictures`, {
      version: three.version,
      order: [2, 1],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.product.pictures).toEqual([b, a]);
    expect(reply.body.product).toMatchObject({ pic: b?.pic, largepic: b?.largepic, version: three.version + 1 });
    expect((await product(p.itemid)).history[0]?.what).toBe('Picture 3 removed; Pictures reordered');
    const card = (await list('q=ordered')).products[0];
    expect(card?.pic).toBe(b?.pic);
    expect((await visitor.json('GET', `/api/products/${card?.slug}`)).body.product.pictures).toEqual([b, a]);
    expect(c).toBeDefined();

    // A page filled before is stale; a place the product has no picture at is a field error.
    const stale = await owner.json('PUT', `/api/admin/products/${p.itemid}/pictures`, {
      version: three.version,
      order: [1],
    });
    expectError(stale, 409, 'product/changed');
    const now = reply.body.product as AdminProduct;
    const beyond = await owner.json('PUT', `/api/admin/products/${p.itemid}/pictures`, {
      version: now.version,
      order: [3],
    });
    expectError(beyond, 400, 'product/invalid');
    expect(beyond.body.field).toBe('order');
    const twice = await owner.json('PUT', `/api/admin/products/${p.itemid}/pictures`, {
      version: now.version,
      order: [1, 1],
    });
    expectError(twice, 400, 'product/invalid', 'Each picture may come once in the order.');

    // Every picture removed: the stand-in again.
    const none = await owner.json('PUT', `/api/admin/products/${p.itemid}/pictures`, {
      version: now.version,
      order: [],
    });
    expect(none.body.product.pictures).toEqual([
      { pic: '/pictures/no-picture-thumb.svg', largepic: '/pictures/no-picture.svg' },
    ]);
  });

  it('keeps the single-picture route: it replaces the first picture only', async () => {
    const p = await newProduct('Replaced Saddle');
    await addPicture(p.itemid, await jpegPicture(400, 300));
    const second = (await addPicture(p.itemid, await jpegPicture(500, 300))).body.product as AdminProduct;
    const reply = await owner.raw('PUT', `/api/admin/products/${p.itemid}/picture`, {
      body: new Uint8Array(await jpegPicture(700, 300)),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.product.pictures).toHaveLength(2);
    expect(reply.body.product.pictures[1]).toEqual(second.pictures[1]);
    expect(reply.body.product.pictures[0]).not.toEqual(second.pictures[0]);
  });
});

describe('access', () => {
  async function requests(client: Client): Promise<Reply[]> {
    const pads = (await categories())[0] as AdminCategory;
    return [
      await client.json('GET', '/api/admin/categories'),
      await client.json('POST', '/api/admin/categories', { name: 'Hacked' }),
      await client.json('PUT', `/api/admin/categories/${pads.slug}`, {
        name: 'Hacked',
        sizeGuide: null,
        version: pads.version,
      }),
      await client.json('PUT', '/api/admin/category-order', { slugs: [pads.slug] }),
      await client.json('DELETE', `/api/admin/categories/${pads.slug}?version=${pads.version}&withProducts=1`),
      await addPicture('1', await jpegPicture(), 'image/jpeg', client),
      await client.json('PUT', '/api/admin/products/1/pictures', { version: 1, order: [] }),
    ];
  }

  it('answers every route 401 to a visitor and 403 to a rider, changing nothing', async () => {
    const before = await categories();
    const picturesBefore = (await product('1')).product.pictures;
    for (const reply of await requests(new Client(server.url))) expectError(reply, 401, 'auth/unauthenticated');
    const rider = await confirmedRider(server.url);
    for (const reply of await requests(rider)) expectError(reply, 403, 'auth/forbidden');
    expect(await categories()).toEqual(before);
    expect((await product('1')).product.pictures).toEqual(picturesBefore);
  });

  it('refuses a cross-origin change', async () => {
    const reply = await owner.raw('POST', '/api/admin/categories', {
      body: JSON.stringify({ name: 'Cross' }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expectError(reply, 403, 'request/cross-origin');
  });
});
