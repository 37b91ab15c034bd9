import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import type { PageData } from '../../src/shared/page-data';
import { findPage, pages } from '../../src/shared/pages';
import { publicShopOf } from '../../src/shared/settings';
import { Client } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';

// The server serves the client built into dist/ (config.distDir, relative to the working directory).
// Without a build it answers every page with 503, so these tests cannot say anything: they fail, loudly,
// rather than being skipped. `npm test` builds first.
const indexFile = resolve('dist/index.html');
const built = existsSync(indexFile);
function requireBuild(): string {
  if (!built) throw new Error(`${indexFile} is missing: run npm run build first`);
  return readFileSync(indexFile, 'utf8');
}

/** What every page's data says of a new shop: its details as first seeded. */
const shop = publicShopOf(newShopSettings);

const preloadLink = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * The page's data as its HTML carries it (src/server/page-data.ts), the page module's files it names for preloading,
 * and the HTML without either.
 */
function pageDataOf(html: string): { data: unknown; preloads: string[]; rest: string } {
  const element = /<script type="application\/json" id="page-data">(.*?)<\/script>/;
  const json = element.exec(html)?.[1];
  if (json === undefined) throw new Error('The page carries no data.');
  const preloads = [...html.matchAll(preloadLink)].map((match) => match[1] ?? '');
  // The index's own modulepreloads come before the page's, with the attributes in another order.
  const index = requireBuild();
  const own = preloads.filter((path) => !index.includes(`href="${path}"`));
  // The page's own title and robots tag (src/server/crawlers/head.ts; test/api/crawlers.test.ts has them) stand for
  // the index's.
  let rest = html
    .replace(element, '')
    .replace(/<title>[^<]*<\/title>/, /<title>[^<]*<\/title>/.exec(index)?.[0] ?? '')
    .replace('<meta name="robots" content="noindex">', '');
  for (const path of own) rest = rest.replace(`<link rel="modulepreload" crossorigin href="${path}">`, '');
  return { data: JSON.parse(json), preloads: own, rest };
}

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer();
  client = new Client(server.url);
});
afterAll(() => server.stop());

describe('pages', () => {
  it.each(Object.values(pages).map((page) => page.path))(
    'GET %s answers 200 text/html with the app, and says that nobody is signed in',
    async (path) => {
      const index = requireBuild();
      const reply = await client.raw('GET', path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^text\/html\b/);
      // The page says who is signed in: for this browser only, asked for anew each time.
      expect(reply.headers.get('cache-control')).toBe('private, no-cache');
      expect(reply.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      // No script runs inline (the CSP allows none): the data's element is JSON, which is never run.
      expect(String(reply.body)).not.toMatch(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>/);
      const { data, rest } = pageDataOf(String(reply.body));
      expect(data).toEqual({ session: null, shop });
      expect(rest).toBe(index);
      // Its own title, and no search engine indexes a page of a members-only shop (docs/product.md §24).
      const page = findPage(path.replace(/:\w+/, 'x'));
      expect(String(reply.body)).toContain(`<title>${page?.title} · ${shop.shop.name}</title>`);
      expect(String(reply.body)).toContain('<meta name="robots" content="noindex">');
    },
  );

  it.each([
    '/nope',
    '/home/extra',
    '/cart/',
    '/HOME',
    '/signup-login/x/y',
    '/index.html',
    '/%2E%2E/package.json',
    '/..%2Fpackage.json',
    '/assets/',
    '/assets/nope.js',
  ])('GET %s answers 404 text/html with the app (its Snap! page)', async (path) => {
    const index = requireBuild();
    const reply = await client.raw('GET', path);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html\b/);
    expect(pageDataOf(String(reply.body)).rest).toBe(index);
  });

  it("carries a rider's session on every page, on /home the products with their stock and version, on /cart the cart", async () => {
    requireBuild();
    const rider = new Client(server.url);
    const user = await rider.signup();
    const session = { user: { uid: user.uid, email: user.email, emailConfirmed: false }, role: 'rider' };
    const homePage = pageDataOf(String((await rider.raw('GET', pages.home.path)).body));
    const home = homePage.data as PageData;
    // The page's own module, named for the browser to fetch beside the entry.
    expect(homePage.preloads.some((path) => /^\/assets\/home-page-[\w-]+\.js$/.test(path))).toBe(true);
    for (const path of homePage.preloads) expect((await rider.raw('GET', path)).status, path).toBe(200);
    const list = (await rider.json('GET', '/api/products')).body;
    expect(home.session).toEqual(session);
    expect(home.catalogue?.list).toEqual(list);
    expect(home.catalogue?.version).toMatch(/^[\w-]{22}$/);
    // A product's page carries its product, and the same version (docs/product.md §22).
    const productPage = pageDataOf(String((await rider.raw('GET', '/products/anky-bridle')).body)).data as PageData;
    expect(productPage.product?.product).toEqual((await rider.json('GET', '/api/products/anky-bridle')).body.product);
    expect(productPage.product?.version).toBe(home.catalogue?.version);
    // The cart's page carries the cart's rows, and their version for the cart stream.
    const cartPage = pageDataOf(String((await rider.raw('GET', pages.cart.path)).body)).data as PageData;
    expect(cartPage.cart?.items).toEqual([]);
    expect(cartPage.cart?.version).toMatch(/^[\w-]{22}$/);
    for (const path of [pages.manageAccount.path, '/nope']) {
      expect(pageDataOf(String((await rider.raw('GET', path)).body)).data, path).toEqual({ session, shop });
    }
    // A session that has ended is nobody, though the browser still sends its cookie.
    const cookie = rider.cookieHeader;
    await rider.logout();
    const after = await rider.raw('GET', pages.home.path, { headers: { cookie } });
    expect(pageDataOf(String(after.body)).data).toEqual({ session: null, shop });
  });

  it("carries on a rider's /checkout the quote its query asks for, the payment methods and the address form's places", async () => {
    requireBuild();
    const rider = new Client(server.url);
    await rider.signup();
    await rider.add('3');
    const checkoutData = async (query: string) =>
      pageDataOf(String((await rider.raw('GET', `${pages.checkout.path}${query}`)).body)).data as PageData;
    const places = {
      countries: (await rider.json('GET', '/api/places')).body.countries,
      regions: { US: (await rider.json('GET', '/api/places/US')).body.regions },
    };
    const methods = (await rider.json('GET', '/api/payment-methods')).body.methods;
    // The quote as GET /api/checkout/quote answers the same query (its names are the page's but for the code's).
    for (const query of ['', '?delivery=collection', '?delivery=shipping&country=CA&region=CA-ON&postalCode=K1A']) {
      const apiQuote = (await rider.json('GET', `/api/checkout/quote${query}`)).body;
      expect(apiQuote.items, query).toHaveLength(1);
      const data = await checkoutData(query);
      expect(data.checkout, query).toEqual({ quote: apiQuote, methods });
      expect(data.places, query).toEqual(places);
    }
    // A discount code's quote is asked through the API, which counts the tries; a query the quote refuses, too.
    for (const query of ['?code=NOPE', '?country=usa', `?postalCode=${'9'.repeat(17)}`]) {
      const data = await checkoutData(query);
      expect(data.checkout, query).toBeUndefined();
      expect(data.places, query).toEqual(places);
    }
  });

  it('GET / redirects to /home', async () => {
    const reply = await client.raw('GET', '/');
    expect(reply.status).toBe(302);
    expect(reply.headers.get('location')).toBe('/home');
  });

  it('serves every product picture the catalogue names', async () => {
    requireBuild();
    for (const product of catalogue) {
      for (const path of [product.pic, product.largepic]) {
        const reply = await client.raw('GET', path);
        expect(reply.status, path).toBe(200);
        expect(reply.headers.get('content-type'), path).toBe('image/svg+xml');
        expect(String(reply.body), path).toContain('<svg');
      }
    }
  });

  it('serves the hashed scripts the page names, with a long cache life', async () => {
    const index = requireBuild();
    const scripts = [...index.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    // No inline script: the CSP allows none.
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const src of scripts) {
      const reply = await client.raw('GET', src);
      expect(reply.status, src).toBe(200);
      expect(reply.headers.get('content-type'), src).toMatch(/^text\/javascript\b/);
      expect(reply.headers.get('cache-control'), src).toBe('public, max-age=31536000, immutable');
    }
  });
});

/** A GET as a browser with `acceptEncoding` sends it, and the bytes as they came (not decoded). */
function fetchBytes(
  url: string,
  acceptEncoding: string,
): Promise<{ encoding: string | undefined; vary: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          encoding: res.headers['content-encoding'],
          vary: res.headers.vary,
          bytes: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('compression', () => {
  it('sends each script in Brotli to a browser that takes it, in gzip to one that takes only gzip, and as it is otherwise', async () => {
    const index = requireBuild();
    const scripts = [...index.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const src of scripts) {
      const file = readFileSync(resolve('dist', `.${src}`));
      const br = await fetchBytes(server.url + src, 'gzip, deflate, br, zstd');
      expect(br.encoding, src).toBe('br');
      expect(br.vary, src).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.bytes).equals(file), src).toBe(true);
      expect(br.bytes.length, src).toBeLessThan(file.length);
      const gzipped = await fetchBytes(server.url + src, 'gzip, br;q=0');
      expect(gzipped.encoding, src).toBe('gzip');
      expect(gunzipSync(gzipped.bytes).equals(file), src).toBe(true);
      const plain = await fetchBytes(server.url + src, 'identity');
      expect(plain.encoding, src).toBeUndefined();
      expect(plain.bytes.equals(file), src).toBe(true);
    }
  });

  it("compresses a page's HTML with its data, for this browser", async () => {
    requireBuild();
    const rider = new Client(server.url);
    await rider.signup();
    const page = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((done, fail) => {
      request(
        server.url + pages.home.path,
        { headers: { 'accept-encoding': 'br', cookie: rider.cookieHeader } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
        },
      )
        .on('error', fail)
        .end();
    });
    expect(page.encoding).toBe('br');
    const { data } = pageDataOf(brotliDecompressSync(page.bytes).toString('utf8'));
    expect((data as PageData).catalogue?.list.products.length).toBeGreaterThan(0);
  });

  it("never serves the build's Brotli copies as files of their own", async () => {
    const index = requireBuild();
    const src = [...index.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] ?? '')[0];
    const reply = await client.raw('GET', `${src}.br`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html\b/);
  });
});

describe('health', () => {
  it('GET /healthz answers 200 {status: "ok"} with the state of e-mail, not cached', async () => {
    const reply = await client.raw('GET', '/healthz');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual({
      status: 'ok',
      mail: { sending: true, overdue: 0, failed: 0 },
    });
  });
});
