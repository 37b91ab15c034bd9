import { escapeUTF8 } from 'entities';
import { type Context, Hono } from 'hono';
import { type Page, pages } from '../../shared/pages';
import type { OpenTo, ShopSettings } from '../../shared/settings';
import type { AppEnv } from '../app-env';
import { acceptedEncodings } from '../compression';
import type { Db } from '../db/database';
import { categories, type ListedProduct, shownProducts } from './listing';
import { absolute, decimalOf, homeUrl, origin, productUrl, skuOf } from './public-urls';

export interface CrawlerParts {
  db: Db;
  publicUrl: string;
  /** The shop's settings now: who can see it, its name and currency. */
  settings: { current(): Promise<ShopSettings> };
}

/** The paths of these routes, for docs/API.md and the tests. */
export const crawlerPaths = { robots: '/robots.txt', sitemap: '/sitemap.xml', feed: '/feeds/google.xml' } as const;

/**
 * What robots.txt keeps crawlers out of in a shop open to everyone: the API, and the first segment of every page
 * that is not the shop's public content (home and the products' pages): the cart, checkout, the account's pages,
 * signing in and the back office. Made from the pages' table, so a new page is kept out unless it is public.
 */
export function disallowedPaths(): string[] {
  const publicPages: readonly Page[] = [pages.home, pages.product];
  const firsts = Object.values(pages as Record<string, Page>)
    .filter((page) => !publicPages.includes(page))
    .map((page) => `/${page.path.split('/')[1]}`);
  return ['/api', ...new Set(firsts)];
}

export function robotsTxt(publicUrl: string, openTo: OpenTo): string {
  if (openTo !== 'everyone') return 'User-agent: *\nDisallow: /\n';
  return [
    'User-agent: *',
    'Allow: /',
    ...disallowedPaths().map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin(publicUrl)}${crawlerPaths.sitemap}`,
    '',
  ].join('\n');
}

/** Text for an XML element: `&`, `<`, `>`, `"` and `'` escaped by `entities` (the file is UTF-8). */
const x = escapeUTF8;

const day = (ms: number) => new Date(ms).toISOString();

/**
 * A streamed reply: each chunk is made when the client has taken the one before (a pull-based stream), so memory
 * holds one page of products whatever the catalogue's size; gzipped on the way when the client takes it.
 */
function streamed(c: Context<AppEnv>, type: string, chunks: AsyncGenerator<string>): Response {
  const encoder = new TextEncoder();
  const log = c.get('log');
  let body: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(encoder.encode(value));
        } catch (err) {
          // The status is sent already: the reply ends short, and the crawler asks again later.
          log?.error({ err, path: c.req.path }, 'a streamed reply failed midway');
          controller.error(err);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
  };
  if (acceptedEncodings(c.req.header('accept-encoding')).gzip) {
    body = body.pipeThrough(new CompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
    headers['Content-Encoding'] = 'gzip';
  }
  return new Response(body, { status: 200, headers });
}

/** The sitemap: home, each category, each shown product, each with the date of its last change when it has one. */
async function* sitemap(db: Db, publicUrl: string): AsyncGenerator<string> {
  const url = (loc: string, lastmod?: number) =>
    `<url><loc>${x(loc)}</loc>${lastmod ? `<lastmod>${day(lastmod)}</lastmod>` : ''}</url>\n`;
  const [latest, changed, listed] = await Promise.all([
    db.kysely
      .selectFrom('product')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('shown', '=', 1)
      .executeTakeFirst(),
    db.kysely
      .selectFrom('product_category as pc')
      .innerJoin('product as p', 'p.itemid', 'pc.itemid')
      .select(['pc.category', (eb) => eb.fn.max('p.updated_at').as('at')])
      .where('p.shown', '=', 1)
      .groupBy('pc.category')
      .execute(),
    categories(db),
  ]);
  const categoryChanged = new Map(changed.map((row) => [row.category, Number(row.at)]));
  let head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  head += url(homeUrl(publicUrl), Number(latest?.at ?? 0));
  for (const category of listed) {
    head += url(homeUrl(publicUrl, { category: category.slug }), categoryChanged.get(category.slug));
  }
  yield head;
  for await (const page of shownProducts(db)) {
    yield page.map((product) => url(productUrl(publicUrl, product.slug), product.updatedAt)).join('');
  }
  yield '</urlset>\n';
}

/** One `<item>` of the feed for each size of a product (one without sizes: one item, out of stock). */
function feedItems(product: ListedProduct, publicUrl: string, shop: { name: string; currency: string }): string {
  const g = (field: string, value: string) => `<g:${field}>${x(value)}</g:${field}>`;
  const common = [
    g('title', product.name),
    g('description', product.details || product.name),
    g('link', productUrl(publicUrl, product.slug)),
    g('image_link', absolute(publicUrl, product.largepic)),
    g('price', `${decimalOf(product.priceCents)} ${shop.currency}`),
    g('brand', shop.name),
    g('condition', 'new'),
  ].join('');
  const sizes = product.sizes.length > 0 ? product.sizes : [undefined];
  return sizes
    .map(
      (size) =>
        `<item>${g('id', size ? skuOf(product.itemid, size.size) : product.itemid)}${common}${g(
          'availability',
          size && size.stock > 0 ? 'in_stock' : 'out_of_stock',
        )}${size ? g('item_group_id', product.itemid) + g('size', size.size) : ''}</item>\n`,
    )
    .join('');
}

/** Google Merchant Center's product feed (RSS 2.0 with the `g:` fields): one item per size of each shown product. */
async function* feed(db: Db, publicUrl: string, shop: { name: string; currency: string }): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n' +
    `<channel><title>${x(shop.name)}</title><link>${x(homeUrl(publicUrl))}</link>` +
    `<description>${x(`The products of ${shop.name}`)}</description>\n`;
  for await (const page of shownProducts(db)) {
    yield page.map((product) => feedItems(product, publicUrl, shop)).join('');
  }
  yield '</channel>\n</rss>\n';
}

/**
 * robots.txt, the sitemap and Google's product feed (docs/product.md §24, docs/decisions/0059-found-by-search-engines.md).
 * Each reads the settings and the database at every request, so each follows the catalogue and the shop's choice of
 * who can see it at once. A members-only shop's robots.txt disallows everything, and its sitemap and feed are the
 * Snap! page (404), as any address that is nothing.
 */
export function crawlerRoutes({ db, publicUrl, settings }: CrawlerParts) {
  return new Hono<AppEnv>()
    .get(crawlerPaths.robots, async (c) => {
      const { access } = await settings.current();
      return c.text(robotsTxt(publicUrl, access.openTo), 200, { 'Cache-Control': 'no-cache' });
    })
    .get(crawlerPaths.sitemap, async (c, next) => {
      const { access } = await settings.current();
      if (access.openTo !== 'everyone') return next();
      return streamed(c, 'application/xml; charset=utf-8', sitemap(db, publicUrl));
    })
    .get(crawlerPaths.feed, async (c, next) => {
      const { access, shop, format } = await settings.current();
      if (access.openTo !== 'everyone') return next();
      return streamed(
        c,
        'application/rss+xml; charset=utf-8',
        feed(db, publicUrl, { name: shop.name, currency: format.currency }),
      );
    });
}
