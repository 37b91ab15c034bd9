import { XMLParser } from 'fast-xml-parser';
import type {
  BreadcrumbList,
  Graph,
  Offer,
  Organization,
  Product,
  SearchAction,
  WebSite,
  WithActionConstraints,
} from 'schema-dts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { shownProducts } from '../../src/server/crawlers/listing';
import type { AdminProduct as AdminForm } from '../../src/shared/products';
import { Client } from '../support/client';
import { jpegPicture } from '../support/pictures';
import { startTestServer, type TestServer } from '../support/server';
import { setOpenTo } from '../support/visitors';

/** A product as the owner's routes answer it: with its slug, which the catalogue keeps on it too. */
type AdminProduct = AdminForm & { slug: string };

// docs/product.md §24: what a crawler and a shared link get, read as curl reads it (fetch, no JavaScript, no cookie).

const publicUrl = 'http://localhost:8080';

let server: TestServer;
let owner: Client;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: publicUrl });
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
});
afterAll(() => server?.stop());

/** A crawler's request: no cookie, no JavaScript. */
async function get(path: string, headers: Record<string, string> = {}) {
  const reply = await fetch(server.url + path, { headers, redirect: 'manual' });
  return { status: reply.status, headers: reply.headers, text: await reply.text() };
}

/** The path of one of our absolute addresses, to ask this test server for it. */
function pathOf(url: string): string {
  expect(url.startsWith(`${publicUrl}/`), url).toBe(true);
  return url.slice(publicUrl.length);
}

const xml = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['url', 'item'].includes(name),
});

function metaOf(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return tag?.[1] === undefined ? undefined : decodeHtml(tag[1]);
}

function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function titleOf(html: string): string | undefined {
  const found = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  return found === undefined ? undefined : decodeHtml(found);
}

function canonicalOf(html: string): string | undefined {
  const found = /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
  return found === undefined ? undefined : decodeHtml(found);
}

/**
 * What the page's `#root` says as text, as the server wrote it: what a reader without JavaScript sees of its body. A
 * rendered page's data element follows the root (src/server/page-data.ts).
 */
function contentOf(html: string): string {
  const root =
    /<div id="root">([\s\S]*)<\/div>\s*(?:<script type="application\/json"[^>]*>.*?<\/script>)?\s*<\/body>/.exec(
      html,
    )?.[1] ?? '';
  return decodeHtml(root.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every JSON-LD graph of the page, parsed back. */
function jsonLdOf(html: string): Graph[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '') as Graph,
  );
}

function nodeOf<T extends { '@type': string }>(graphs: Graph[], type: T['@type']): T {
  const found = graphs.flatMap((graph) => graph['@graph'] as unknown as T[]).find((node) => node['@type'] === type);
  if (!found) throw new Error(`no ${type} in the page's JSON-LD`);
  return found;
}

/** The shown products as the database has them, with their sizes, in item-number order. */
async function shownInDb() {
  const all = [];
  for await (const page of shownProducts(server.db)) all.push(...page);
  return all;
}

async function addProduct(form: Record<string, unknown>): Promise<AdminProduct> {
  const reply = await owner.json('POST', '/api/admin/products', {
    name: 'Spur straps',
    details: 'Soft leather.',
    priceCents: 4500,
    shown: true,
    sizes: [{ size: 'One size', stock: 10 }],
    ...form,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.product;
}

async function save(product: AdminProduct, changes: Record<string, unknown>): Promise<AdminProduct> {
  const reply = await owner.json('PUT', `/api/admin/products/${product.itemid}`, {
    name: product.name,
    details: product.details,
    priceCents: product.priceCents,
    shown: product.shown,
    sizes: product.sizes.map((s) => ({ size: s.size, stock: s.stock, stockShown: s.stock })),
    version: product.version,
    ...changes,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.product;
}

describe('a members-only shop (the default) serves none of it', () => {
  it('robots.txt disallows everything, the sitemap and the feed are 404, and signup-login says noindex', async () => {
    const robots = await get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(robots.text).toBe('User-agent: *\nDisallow: /\n');
    for (const path of ['/sitemap.xml', '/feeds/google.xml']) expect((await get(path)).status).toBe(404);
    const signup = await get('/signup-login');
    expect(metaOf(signup.text, 'robots')).toBe('noindex');
    // Home and a product's page name no product, and carry no canonical link, Open Graph or JSON-LD.
    for (const path of ['/home', '/products/anky-bridle']) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(metaOf(page.text, 'robots')).toBe('noindex');
      expect(canonicalOf(page.text)).toBeUndefined();
      expect(metaOf(page.text, 'og:title')).toBeUndefined();
      expect(jsonLdOf(page.text)).toEqual([]);
      expect(page.text).not.toContain('Anky');
      // Nothing rendered on the server, for a visitor or a rider: the page is empty until JavaScript runs, as before.
      expect(contentOf(page.text)).toBe('');
      expect(contentOf((await owner.raw('GET', path)).bytes.toString('utf8'))).toBe('');
    }
  });
});

describe('a shop open to everyone', () => {
  let hidden: AdminProduct;
  let hiddenPicture: string;
  beforeAll(async () => {
    await setOpenTo(owner, 'everyone');
    // A hidden product with a picture of its own: neither is ever listed.
    hidden = await addProduct({ name: 'Secret saddle', shown: false });
    const upload = await owner.raw('PUT', `/api/admin/products/${hidden.itemid}/picture`, {
      body: new Uint8Array(await jpegPicture(800, 600)),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    hiddenPicture = upload.body.product.largepic;
    expect(hiddenPicture).toMatch(/^\/media\//);
  });

  it("a product's page holds its name, price, title, description, canonical link, Open Graph and Twitter tags", async () => {
    const product = await addProduct({
      name: 'Bits & <Bobs> "Deluxe"',
      details: 'Stainless steel.\nFor the young horse & the old.',
      priceCents: 12_345,
      sizes: [
        { size: '12.5 cm', stock: 0 },
        { size: '13.5 cm', stock: 4 },
      ],
    });
    const upload = await owner.raw('PUT', `/api/admin/products/${product.itemid}/picture`, {
      body: new Uint8Array(await jpegPicture(1000, 750)),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(upload.status).toBe(200);
    const page = await get(`/products/${product.slug}`);
    expect(page.status).toBe(200);
    const html = page.text;
    expect(titleOf(html)).toBe(`${product.name} · Piaffe`);
    expect(metaOf(html, 'description')).toBe('Stainless steel. For the young horse & the old.');
    expect(canonicalOf(html)).toBe(`${publicUrl}/products/${product.slug}`);
    expect(metaOf(html, 'og:type')).toBe('product');
    expect(metaOf(html, 'og:title')).toBe(`${product.name} · Piaffe`);
    expect(metaOf(html, 'og:url')).toBe(`${publicUrl}/products/${product.slug}`);
    expect(metaOf(html, 'og:image')).toBe(`${publicUrl}${upload.body.product.largepic}`);
    expect(metaOf(html, 'og:image:width')).toBe('1000');
    expect(metaOf(html, 'og:image:height')).toBe('750');
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(html, 'twitter:image')).toBe(`${publicUrl}${upload.body.product.largepic}`);
    expect(metaOf(html, 'product:price:amount')).toBe('123.45');
    expect(metaOf(html, 'robots')).toBeUndefined();
    // The name as text everywhere: escaped in the head, never markup.
    expect(html).not.toContain('<Bobs>');
    // The index's own title and description are replaced, not added to.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
  });

  it('home, a category, a search and a product page hold their content in their HTML; a price change shows in the next response', async () => {
    const product = await addProduct({ name: 'Hoof oil', categories: ['boots'], priceCents: 2_345 });
    const pages = [`/products/${product.slug}`, '/home', '/home?category=boots', '/home?q=hoof+oil'];
    for (const path of pages) {
      const content = contentOf((await get(path)).text);
      // The frame (the header's shop name, the footer's address) and the page's own content, read without JavaScript.
      expect(content, path).toMatch(/^Skip to content Piaffe /);
      expect(content, path).toContain('12 Arena Lane, Wellington, FL 33414');
      expect(content, path).toContain('Hoof oil');
      expect(content, path).toContain('$23.45');
    }
    // Another category and another search: not this product.
    for (const path of ['/home?category=bridles', '/home?q=bridle']) {
      const content = contentOf((await get(path)).text);
      expect(content, path).toContain('Anky Bridle');
      expect(content, path).not.toContain('Hoof oil');
    }
    // The product's page: its name as the heading, its price, its details, its category's size guide, 'Add to cart'.
    const html = (await get(`/products/${product.slug}`)).text;
    expect(html).toContain('<h1 id="product-title">Hoof oil</h1>');
    expect(contentOf(html)).toMatch(/Item no\. \d+ Hoof oil \$23\.45 Soft leather\. Size guide .* Add to cart/);

    await save(product, { priceCents: 2_999 });
    for (const path of pages) {
      const content = contentOf((await get(path)).text);
      expect(content, path).toContain('$29.99');
      expect(content, path).not.toContain('$23.45');
    }
  });

  it("a signed-in rider's page is rendered with their session, and the next visitor's with none", async () => {
    const rider = await owner.raw('GET', '/products/anky-bridle', { headers: { accept: 'text/html' } });
    expect(rider.status).toBe(200);
    const riderContent = contentOf(rider.bytes.toString('utf8'));
    expect(riderContent).toContain('Account Admin Log out');
    expect(riderContent).toContain('Anky Bridle');
    const visitorContent = contentOf((await get('/products/anky-bridle')).text);
    expect(visitorContent).toContain('view items Log in');
    expect(visitorContent).not.toContain('Log out');
  });

  it("a product's JSON-LD: a Product with one Offer per size, checked against the database, and a BreadcrumbList", async () => {
    const product = await addProduct({
      name: 'Dressage girth',
      categories: ['saddles'],
      priceCents: 8_900,
      sizes: [
        { size: '110 cm', stock: 3 },
        { size: '120 cm', stock: 0 },
      ],
    });
    const read = async () => jsonLdOf((await get(`/products/${product.slug}`)).text);
    const graphs = await read();
    expect(graphs).toHaveLength(1);
    expect(graphs[0]?.['@context']).toBe('https://schema.org');
    const item = nodeOf<Exclude<Product, string>>(graphs, 'Product');
    const inDb = (await shownInDb()).find((p) => p.itemid === product.itemid);
    if (!inDb) throw new Error('the product is not shown');
    expect(item.name).toBe(inDb.name);
    expect(item.sku).toBe(inDb.itemid);
    expect(item.url).toBe(`${publicUrl}/products/${inDb.slug}`);
    expect(item.brand).toEqual({ '@type': 'Brand', name: 'Piaffe' });
    expect(item.offers).toEqual(
      inDb.sizes.map((size) => ({
        '@type': 'Offer',
        sku: `${inDb.itemid}-${size.size}`,
        name: size.size,
        price: (inDb.priceCents / 100).toFixed(2),
        priceCurrency: 'USD',
        availability: size.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/NewCondition',
        url: `${publicUrl}/products/${inDb.slug}`,
        seller: { '@id': `${publicUrl}/#organization` },
      })),
    );
    const crumbs = nodeOf<Exclude<BreadcrumbList, string>>(graphs, 'BreadcrumbList');
    expect(crumbs.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${publicUrl}/home` },
      { '@type': 'ListItem', position: 2, name: 'Saddles', item: `${publicUrl}/home?category=saddles` },
      { '@type': 'ListItem', position: 3, name: 'Dressage girth', item: `${publicUrl}/products/${inDb.slug}` },
    ]);

    // A price change and a sale of the last of a size show in the next response.
    await save(product, { priceCents: 9_950 });
    await server.stock.set(0);
    const after = nodeOf<Exclude<Product, string>>(await read(), 'Product');
    const offers = after.offers as Exclude<Offer, string>[];
    expect(offers.map((offer) => [offer.price, offer.availability])).toEqual([
      ['99.50', 'https://schema.org/OutOfStock'],
      ['99.50', 'https://schema.org/OutOfStock'],
    ]);
    await server.stock.set(1000);

    // A change of stock alone (the product's page is kept by the server until one): the next response has it.
    const availability = async () =>
      (nodeOf<Exclude<Product, string>>(await read(), 'Product').offers as Exclude<Offer, string>[]).map(
        (offer) => offer.availability,
      );
    expect(await availability()).toEqual(['https://schema.org/InStock', 'https://schema.org/InStock']);
    expect(await availability()).toEqual(['https://schema.org/InStock', 'https://schema.org/InStock']);
    await server.stock.set(0);
    expect(await availability()).toEqual(['https://schema.org/OutOfStock', 'https://schema.org/OutOfStock']);
    await server.stock.set(1000);
  });

  it("a renamed product's old address names its new one as canonical; a hidden one's page says noindex", async () => {
    const product = await addProduct({ name: 'Fly veil' });
    const renamed = await save(product, { name: 'Fly bonnet' });
    const old = await get(`/products/${product.slug}`);
    expect(canonicalOf(old.text)).toBe(`${publicUrl}/products/${renamed.slug}`);
    const secret = await get(`/products/${hidden.slug}`);
    expect(metaOf(secret.text, 'robots')).toBe('noindex');
    expect(secret.text).not.toContain('Secret saddle');
    expect(secret.text).not.toContain(hiddenPicture);
  });

  it('home: its title and canonical link per list, Organization and WebSite with a SearchAction', async () => {
    const home = (await get('/home')).text;
    expect(titleOf(home)).toBe('Shop · Piaffe');
    expect(canonicalOf(home)).toBe(`${publicUrl}/home`);
    expect(metaOf(home, 'og:type')).toBe('website');
    expect(metaOf(home, 'description')).toMatch(/^Piaffe, a dressage shop for horse and rider: \d+ products\.$/);
    const graphs = jsonLdOf(home);
    const organization = nodeOf<Exclude<Organization, string>>(graphs, 'Organization');
    expect(organization.name).toBe('Piaffe');
    expect(organization['@id']).toBe(`${publicUrl}/#organization`);
    const site = nodeOf<Exclude<WebSite, string>>(graphs, 'WebSite');
    expect(site.url).toBe(`${publicUrl}/home`);
    const search = site.potentialAction as WithActionConstraints<Exclude<SearchAction, string>>;
    expect(search['@type']).toBe('SearchAction');
    expect(search.target).toEqual({ '@type': 'EntryPoint', urlTemplate: `${publicUrl}/home?q={search_term_string}` });
    expect(search['query-input']).toBe('required name=search_term_string');
    // The SearchAction lands on home's search: that address, filled in, is the list of what it finds.
    const searched = await get('/home?q=bridle');
    expect(searched.status).toBe(200);
    expect(titleOf(searched.text)).toBe('Search: bridle · Piaffe');
    expect(metaOf(searched.text, 'description')).toMatch(/^\d+ products? found for “bridle” at Piaffe\.$/);
    // Of the query, only the category and the page are in the canonical link.
    const category = await get('/home?q=x&category=bridles&size=Cob&instock=1&page=1');
    expect(canonicalOf(category.text)).toBe(`${publicUrl}/home?category=bridles`);
    const bridles = await get('/home?category=bridles');
    expect(titleOf(bridles.text)).toBe('Bridles · Piaffe');
    expect(metaOf(bridles.text, 'description')).toBe('Bridles at Piaffe: 2 products.');
    expect(metaOf(bridles.text, 'og:image:width')).toBe('1200');
    const second = await get('/home?page=2');
    expect(canonicalOf(second.text)).toBe(`${publicUrl}/home?page=2`);
    expect(titleOf(second.text)).toBe('Shop · Page 2 · Piaffe');
    // The pages that are not public content say noindex.
    for (const path of ['/cart', '/signup-login', '/checkout', '/admin']) {
      expect(metaOf((await get(path)).text, 'robots'), path).toBe('noindex');
    }
  });

  it('robots.txt allows the public pages, disallows the private ones, and names the sitemap', async () => {
    const robots = await get('/robots.txt');
    expect(robots.text).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api',
        'Disallow: /cart',
        'Disallow: /signup-login',
        'Disallow: /manage-account',
        'Disallow: /checkout',
        'Disallow: /orders',
        'Disallow: /reset-password',
        'Disallow: /confirm-email',
        'Disallow: /admin',
        '',
        `Sitemap: ${publicUrl}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  it('the sitemap lists home, each category and each shown product with its last change; each answers 200', async () => {
    const reply = await get('/sitemap.xml');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const parsed = xml.parse(reply.text);
    expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const urls: { loc: string; lastmod?: string }[] = parsed.urlset.url;
    const shown = await shownInDb();
    const categories = await server.db.kysely.selectFrom('category').select('slug').orderBy('position').execute();
    expect(urls.map((url) => url.loc)).toEqual([
      `${publicUrl}/home`,
      ...categories.map((category) => `${publicUrl}/home?category=${category.slug}`),
      ...shown.map((product) => `${publicUrl}/products/${product.slug}`),
    ]);
    for (const product of shown) {
      const url = urls.find((u) => u.loc === `${publicUrl}/products/${product.slug}`);
      expect(url?.lastmod).toBe(new Date(product.updatedAt).toISOString());
    }
    expect(urls[0]?.lastmod).toBe(new Date(Math.max(...shown.map((p) => p.updatedAt))).toISOString());
    expect(reply.text).not.toContain(hidden.slug);
    for (const url of urls) expect((await get(pathOf(url.loc))).status, url.loc).toBe(200);
    // Gzipped when the client takes it, and the same document.
    const zipped = await fetch(`${server.url}/sitemap.xml`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(reply.text);
  });

  it("Google's feed: RSS 2.0 with the g: fields, an item for each size of each shown product", async () => {
    const reply = await get('/feeds/google.xml');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const parsed = xml.parse(reply.text);
    expect(parsed.rss['@_version']).toBe('2.0');
    expect(parsed.rss['@_xmlns:g']).toBe('http://base.google.com/ns/1.0');
    const items: Record<string, string>[] = parsed.rss.channel.item;
    const shown = await shownInDb();
    const expected = shown.flatMap((product) =>
      product.sizes.map((size) => ({
        'g:id': `${product.itemid}-${size.size}`,
        'g:title': product.name,
        'g:description': product.details,
        'g:link': `${publicUrl}/products/${product.slug}`,
        'g:image_link': `${publicUrl}${product.largepic}`,
        'g:price': `${(product.priceCents / 100).toFixed(2)} USD`,
        'g:brand': 'Piaffe',
        'g:condition': 'new',
        'g:availability': size.stock > 0 ? 'in_stock' : 'out_of_stock',
        'g:item_group_id': product.itemid,
        'g:size': size.size,
      })),
    );
    expect(items).toEqual(expected);
    expect(items.some((item) => item['g:title'] === 'Bits & <Bobs> "Deluxe"')).toBe(true);
    expect(reply.text).not.toContain('Secret saddle');
    expect(reply.text).not.toContain(hiddenPicture);
    for (const link of new Set(items.map((item) => item['g:link'] as string))) {
      expect((await get(pathOf(link))).status, link).toBe(200);
    }
    for (const image of new Set(items.map((item) => item['g:image_link'] as string))) {
      expect((await get(pathOf(image))).status, image).toBe(200);
    }
  });

  it('the listing reads every shown product once, in keyset pages of any size', async () => {
    const all = await shownInDb();
    expect(all.length).toBeGreaterThan(3);
    const pages: string[][] = [];
    for await (const page of shownProducts(server.db, 2)) pages.push(page.map((product) => product.itemid));
    expect(pages.every((page) => page.length <= 2)).toBe(true);
    expect(pages.flat()).toEqual(all.map((product) => product.itemid));
    expect(new Set(pages.flat()).size).toBe(all.length);
  });

  it('a product hidden, or the shop back to members only, is gone from them at once', async () => {
    const product = await addProduct({ name: 'Tail bag' });
    expect((await get('/sitemap.xml')).text).toContain(product.slug);
    await save(product, { shown: false });
    expect((await get('/sitemap.xml')).text).not.toContain(product.slug);
    expect((await get('/feeds/google.xml')).text).not.toContain('Tail bag');
    await setOpenTo(owner, 'members');
    expect((await get('/sitemap.xml')).status).toBe(404);
    expect((await get('/feeds/google.xml')).status).toBe(404);
    expect((await get('/robots.txt')).text).toBe('User-agent: *\nDisallow: /\n');
    await setOpenTo(owner, 'everyone');
  });
});
