import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { type ProductPage, productQuery } from '../../src/shared/finding';
import { pages } from '../../src/shared/pages';
import { Client, confirmedRider } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

/** Finding products (docs/product.md §22) on the backend under test: the same table of searches on both databases. */
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

async function list(query: string): Promise<ProductPage> {
  const reply = await visitor.json('GET', `/api/products${query ? `?${query}` : ''}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const names = (page: ProductPage) => page.products.map((p) => p.name);

/** Searches and the products each finds, in the home page's order: the same answers on SQLite and PostgreSQL. */
const searches: [string, string[]][] = [
  ['bridle', ['Anky Bridle', 'Fellmore Bridle']],
  ['brdle', ['Anky Bridle', 'Fellmore Bridle']],
  ['bridel', []],
  ['ariat', ['Ariat Westchester Boots']],
  ['ARIAT', ['Ariat Westchester Boots']],
  ['Ariát', ['Ariat Westchester Boots']],
  ['ari', ['Ariat Westchester Boots']],
  ['westchster', ['Ariat Westchester Boots']],
  ['barn jacket', ['Carlson Barn Jacket', 'Dakota Barn Jacket']],
  ['carlson', ['Carlson Barn Jacket', 'Carlson Tall Boots']],
  ['carlson boots', ['Carlson Tall Boots']],
  ['jackets', ['Carlson Barn Jacket', 'Dakota Barn Jacket']],
  ['saddle pads', ['Crochet Saddle Blanket']],
  ['sadle', ['Albion SLK Saddle', 'Crochet Saddle Blanket']],
  ['crochet lace', ['Crochet Saddle Blanket']],
  ['boot', ['Ariat Westchester Boots', 'Carlson Tall Boots']],
  ['oots', []],
  ['bots', []],
  ['zebra', []],
  ['!!!', []],
];

describe('search', () => {
  it.each(searches)('%s finds its products and no other', async (q, expected) => {
    expect(names(await list(`q=${encodeURIComponent(q)}`))).toEqual(expected);
  });

  it('finds a product by a word of a name the owner gave it, in the same unit as the change', async () => {
    const created = await owner.json('POST', '/api/admin/products', {
      name: 'Schooling Numnah',
      details: 'A quilted cotton numnah.',
      priceCents: 4500,
      shown: true,
      sizes: [{ size: 'One size', stock: 10 }],
    });
    expect(created.status).toBe(201);
    expect(names(await list('q=numnha'))).toEqual([]);
    expect(names(await list('q=numnah'))).toEqual(['Schooling Numnah']);
    const product = created.body.product;
    const renamed = await owner.json('PUT', `/api/admin/products/${product.itemid}`, {
      name: 'Schooling Pad Émeraude',
      details: product.details,
      priceCents: product.priceCents,
      shown: true,
      sizes: [{ size: 'One size', stock: 10, stockShown: 10 }],
      version: product.version,
    });
    expect(renamed.status).toBe(200);
    expect(names(await list('q=numnah'))).toEqual(['Schooling Pad Émeraude']);
    expect(names(await list('q=emeraude'))).toEqual(['Schooling Pad Émeraude']);
    expect(names(await list('q=schooling%20numnah%20emerade'))).toEqual(['Schooling Pad Émeraude']);
  });
});

describe('filters and pages', () => {
  it('offers the categories in order and the sizes of the shown products', async () => {
    const page = await list('');
    expect(page.categories.map((c) => c.name)).toEqual(['Bridles', 'Saddles', 'Boots', 'Jackets', 'Saddle pads']);
    expect(page.sizes.slice(0, 9)).toEqual(['Pony', 'Cob', 'Full', 'Warmblood', '16.5"', '17"', '17.5"', '18"', '6']);
    expect(page).toMatchObject({ page: 1, pages: 1 });
    expect(page.products[0]).toMatchObject({ itemid: '1', slug: 'anky-bridle', name: 'Anky Bridle' });
  });

  it('filters by category, size and stock, together with a search', async () => {
    expect(names(await list('category=boots'))).toEqual(['Ariat Westchester Boots', 'Carlson Tall Boots']);
    expect(names(await list('category=saddle-pads'))).toEqual(['Crochet Saddle Blanket']);
    expect(names(await list('category=nothing-such'))).toEqual([]);
    expect(names(await list('size=Warmblood'))).toEqual(['Anky Bridle', 'Fellmore Bridle']);
    expect(names(await list('size=Pony&q=crochet'))).toEqual(['Crochet Saddle Blanket']);
    await server.stock.set(0, { itemid: '8', size: 'Warmblood' });
    expect(names(await list('size=Warmblood&instock=1'))).toEqual(['Anky Bridle']);
    for (const size of ['Pony', 'Cob', 'Full']) await server.stock.set(0, { itemid: '8', size });
    expect(names(await list('category=bridles&instock=1'))).toEqual(['Anky Bridle']);
    expect(names(await list('category=bridles'))).toEqual(['Anky Bridle', 'Fellmore Bridle']);
  });

  it('comes in pages of 24, in the owner order', async () => {
    for (let i = 0; i < 30; i++) {
      const reply = await owner.json('POST', '/api/admin/products', {
        name: `Practice Whip ${i}`,
        details: 'A light schooling whip.',
        priceCents: 1500 + i,
        shown: true,
        sizes: [{ size: '110 cm', stock: 3 }],
      });
      expect(reply.status).toBe(201);
    }
    const first = await list('q=whip');
    expect(first).toMatchObject({ page: 1, pages: 2, total: 30 });
    expect(first.products).toHaveLength(24);
    const second = await list('q=whip&page=2');
    expect(names(second)).toEqual([24, 25, 26, 27, 28, 29].map((i) => `Practice Whip ${i}`));
    expect((await list('q=whip&page=3')).products).toEqual([]);
  });

  it.each([
    ['page=0', 'page must be a whole number from 1.'],
    ['page=abc', 'page must be a whole number from 1.'],
    ['instock=yes', 'instock must be 1 or left out.'],
    [`q=${'a'.repeat(101)}`, 'q must be at most 100 characters.'],
    ['q=a%00b', 'q must be on one line, without control characters.'],
    ['sort=price', 'Unrecognized key: "sort"'],
    ['q=a&q=b', 'q: give it once.'],
  ])('refuses %s', async (query, message) => {
    const reply = await visitor.json('GET', `/api/products?${query}`);
    expectError(reply, 400, 'request/invalid-query');
    expect(reply.body.message).toContain(message);
  });
});

describe("a product's page", () => {
  async function form(itemid: string) {
    const { product } = (await owner.json('GET', `/api/admin/products/${itemid}`)).body;
    return {
      name: product.name,
      details: product.details,
      priceCents: product.priceCents,
      shown: product.shown,
      sizes: product.sizes.map((s: { size: string; stock: number }) => ({ ...s, stockShown: s.stock })),
      version: product.version,
    };
  }

  it('has its pictures, sizes and the size guide of its category', async () => {
    const reply = await visitor.json('GET', '/api/products/anky-bridle');
    expect(reply.status).toBe(200);
    expect(reply.body.product).toMatchObject({
      itemid: '1',
      slug: 'anky-bridle',
      name: 'Anky Bridle',
      pictures: [{ pic: '/pictures/anky-bridle-thumb.svg', largepic: '/pictures/anky-bridle.svg' }],
      sizeGuide: { columns: ['Size', 'Browband', 'Noseband'] },
    });
    expect(reply.body.product.sizes.map((s: { size: string }) => s.size)).toEqual(['Pony', 'Cob', 'Full', 'Warmblood']);
  });

  it('keeps every slug a product had: a rename gives a new one, the old one still finds it; names alike get -2', async () => {
    const before = await form('7');
    expect(
      (await owner.json('PUT', '/api/admin/products/7', { ...before, name: 'Dakota Quilted Jacket' })).status,
    ).toBe(200);
    const old = await visitor.json('GET', '/api/products/dakota-barn-jacket');
    expect(old.status).toBe(200);
    expect(old.body.product).toMatchObject({ itemid: '7', slug: 'dakota-quilted-jacket' });
    expect((await visitor.json('GET', '/api/products/dakota-quilted-jacket')).body.product.itemid).toBe('7');
    // Another product may never take a slug product 7 had, nor its current one.
    const twin = await owner.json('POST', '/api/admin/products', {
      name: 'Dakota Barn Jacket',
      details: '',
      priceCents: 100,
      shown: true,
      sizes: [{ size: 'M', stock: 1 }],
    });
    expect(twin.status).toBe(201);
    expect((await list('q=dakota')).products.map((p) => p.slug)).toEqual([
      'dakota-quilted-jacket',
      'dakota-barn-jacket-2',
    ]);
    // Named back, product 7 has its first slug again.
    const now = await form('7');
    expect((await owner.json('PUT', '/api/admin/products/7', { ...now, name: 'Dakota Barn Jacket' })).status).toBe(200);
    expect((await visitor.json('GET', '/api/products/dakota-quilted-jacket')).body.product.slug).toBe(
      'dakota-barn-jacket',
    );
  });

  it('is not found for a hidden product or an unknown slug', async () => {
    const before = await form('5');
    expect((await owner.json('PUT', '/api/admin/products/5', { ...before, shown: false })).status).toBe(200);
    expectError(await visitor.json('GET', '/api/products/carlson-tall-boots'), 404, 'product/no-page');
    expectError(await visitor.json('GET', '/api/products/no-such-thing'), 404, 'product/no-page');
    expect(names(await list('q=carlson'))).toEqual(['Carlson Barn Jacket']);
    const now = await form('5');
    expect((await owner.json('PUT', '/api/admin/products/5', { ...now, shown: true })).status).toBe(200);
    expect((await visitor.json('GET', '/api/products/carlson-tall-boots')).status).toBe(200);
  });
});

/**
 * The letters that PostgreSQL's `unaccent` turns into an apostrophe (ʼ ʹ ʻ ʽ ˈ ŉ) or other signs (ʺ ˆ ˋ ː), the search
 * syntax of either database, and combining marks: whatever a visitor types in the search field is a search, never an
 * error.
 */
describe('any text a visitor types', () => {
  const apostrophes = ['ʼ', 'ʹ', 'ʻ', 'ʽ', 'ˈ', 'ŉ'];
  const odd = [
    ...apostrophes,
    'ʺ',
    'ˆ',
    'ˋ',
    'ː',
    "'",
    '"',
    '\\',
    '&',
    '|',
    '!',
    '(',
    ')',
    ':',
    '*',
    '<',
    '>',
    '-',
    '^',
    '\u0301',
    '\u0308',
  ];
  const searchText = fc.oneof(
    fc.string({ unit: fc.constantFrom(...odd, 'a', 'b', 'é', 'ß', '1', ' '), maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom(
      ...apostrophes,
      ...apostrophes.map((letter) => `bridle${letter}s`),
      "o'neill",
      'ʼ ʹ ʻ ʽ ˈ ŉ',
      'aʺb aˆb aˋb aːb',
      "\\'",
      '&|!():*<>',
      "'':*",
      'e\u0301\u0301\u0301',
      '\u0301',
    ),
  );

  it('answers 200 to the list and to the signed-in home page, whose data has the list', async () => {
    const member = await confirmedRider(server.url);
    await fc.assert(
      fc.asyncProperty(searchText, async (q) => {
        // Only what the form's field cannot send (a control character, more than its length) is refused.
        const valid = productQuery.safeParse({ q }).success;
        const path = `?q=${encodeURIComponent(q)}`;
        const reply = await visitor.json('GET', `/api/products${path}`);
        expect(reply.status, `${JSON.stringify(q)}: ${JSON.stringify(reply.body)}`).toBe(valid ? 200 : 400);
        const home = await member.raw('GET', `${pages.home.path}${path}`);
        expect(home.status).toBe(200);
        const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(String(home.body))?.[1];
        expect(JSON.parse(data ?? '{}').catalogue !== undefined, JSON.stringify(q)).toBe(valid);
      }),
      { numRuns: 150 },
    );
  });

  it('finds a name with such a letter by it, as the name is written', async () => {
    const created = await owner.json('POST', '/api/admin/products', {
      name: 'Kʼiche Halter',
      details: 'Hand-plaited.',
      priceCents: 3000,
      shown: true,
      sizes: [{ size: 'One size', stock: 3 }],
    });
    expect(created.status).toBe(201);
    expect(names(await list(`q=${encodeURIComponent('kʼiche')}`))).toEqual(['Kʼiche Halter']);
    expect(names(await list(`q=${encodeURIComponent('kʼic halter')}`))).toEqual(['Kʼiche Halter']);
  });
});
