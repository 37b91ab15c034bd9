import { escapeAttribute, escapeText } from 'entities';
import type { Context } from 'hono';
import { brand } from '../../shared/brand';
import { productQuery } from '../../shared/finding';
import type { PageData } from '../../shared/page-data';
import { homeTitle, notFoundTitle, type Page, pages, pageTitle } from '../../shared/pages';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/database';
import { homeGraph, jsonLdElement, productGraph } from './json-ld';
import { firstCategoryOf } from './listing';
import type { PictureSize } from './picture-sizes';
import { absolute, decimalOf, homeUrl, productUrl, summary } from './public-urls';

export interface HeadParts {
  db: Db;
  /** PUBLIC_URL: the canonical links, Open Graph's and JSON-LD's addresses start with it. */
  publicUrl: string;
  pictureSize: (url: string) => Promise<PictureSize | undefined>;
}

/**
 * What a page's `<head>` says of it: its title, its description (none: index.html's stays), and the tags after them
 * (robots, the canonical link, Open Graph, JSON-LD).
 */
export interface Head {
  title: string;
  description?: string;
  tags: string;
}

function meta(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeAttribute(content)}">`;
}

const noindex = meta('name', 'robots', 'noindex');

interface Shared {
  title: string;
  description: string;
  canonical: string;
  type: 'website' | 'product';
  image?: { url: string; alt: string; size: PictureSize | undefined };
  extra?: string;
}

/** The tags every public page has besides its description: canonical link, Open Graph and the Twitter card. */
function publicTags(siteName: string, page: Shared): string {
  const { image } = page;
  return [
    `<link rel="canonical" href="${escapeAttribute(page.canonical)}">`,
    meta('property', 'og:type', page.type),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
    meta('property', 'og:url', page.canonical),
    ...(image
      ? [
          meta('property', 'og:image', image.url),
          ...(image.size
            ? [
                meta('property', 'og:image:width', String(image.size.width)),
                meta('property', 'og:image:height', String(image.size.height)),
              ]
            : []),
          meta('property', 'og:image:alt', image.alt),
        ]
      : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', page.title),
    meta('name', 'twitter:description', page.description),
    ...(image ? [meta('name', 'twitter:image', image.url), meta('name', 'twitter:image:alt', image.alt)] : []),
    page.extra ?? '',
  ].join('');
}

/**
 * The head of the page at `page` for the data the page carries (src/server/page-data.ts; nothing else of the page is
 * read again): for a shop open to everyone, home (a list, a category, a search) and a product's page get their own
 * title, description, canonical link, Open Graph and Twitter card tags and JSON-LD (docs/product.md §24); every other
 * page, and every page of a members-only shop, its title and `noindex`. Undefined without data: index.html's own head.
 */
export function pageHead({ db, publicUrl, pictureSize }: HeadParts) {
  return async (c: Context<AppEnv>, page: Page | undefined, data: PageData | undefined): Promise<Head | undefined> => {
    if (!data) return undefined;
    const { shop } = data.shop;
    const open = data.shop.access.openTo === 'everyone';
    const plain = (title: string): Head => ({ title: pageTitle(title, shop.name), tags: noindex });
    if (!page) return plain(notFoundTitle);
    if (page === pages.home && open && data.catalogue) {
      const { list } = data.catalogue;
      // The list's data was read for this query, so the query is one the list takes.
      const query = productQuery.parse(c.req.query());
      const category = list.categories.find((given) => given.slug === query.category);
      const title = pageTitle(homeTitle({ q: query.q, categoryName: category?.name, page: list.page }), shop.name);
      const what = category ? `${category.name} at ${shop.name}` : `${shop.name}, ${brand.tagline.toLowerCase()}`;
      const found = list.total === 1 ? '1 product' : `${list.total} products`;
      const description = query.q
        ? `${found} found for “${query.q}” at ${shop.name}.`
        : `${what}: ${found}${list.pages > 1 ? `, page ${list.page} of ${list.pages}` : ''}.`;
      const first = list.products[0];
      return {
        title,
        description,
        tags: publicTags(shop.name, {
          title,
          description,
          canonical: homeUrl(publicUrl, { category: query.category, page: list.page }),
          type: 'website',
          image: first && {
            url: absolute(publicUrl, first.largepic),
            alt: first.name,
            size: await pictureSize(first.largepic),
          },
          extra: jsonLdElement(homeGraph(publicUrl, shop)),
        }),
      };
    }
    if (page === pages.product && data.product) {
      const { product } = data.product;
      if (!open) return plain(product.name);
      const [size, category] = await Promise.all([pictureSize(product.largepic), firstCategoryOf(db, product.itemid)]);
      const title = pageTitle(product.name, shop.name);
      const currency = data.shop.format.currency;
      const description = summary(product.details) || product.name;
      return {
        title,
        description,
        tags: publicTags(shop.name, {
          title,
          description,
          canonical: productUrl(publicUrl, product.slug),
          type: 'product',
          image: { url: absolute(publicUrl, product.largepic), alt: product.name, size },
          extra:
            meta('property', 'product:price:amount', decimalOf(product.priceCents)) +
            meta('property', 'product:price:currency', currency) +
            jsonLdElement(productGraph(publicUrl, product, { name: shop.name, currency }, category)),
        }),
      };
    }
    // An unknown or hidden product is the Snap! page once the page asks.
    return plain(page === pages.product && open ? notFoundTitle : page.title);
  };
}

/**
 * The page's HTML with its own head: index.html's title, and its description when the page has one of its own,
 * replaced by the page's; the other tags before `</head>`. Text is escaped by `entities` (the title as text, every
 * value as an attribute).
 */
export function withHead(html: string, head: Head | undefined): string {
  if (!head) return html;
  const { description } = head;
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(head.title)}</title>`)
    .replace(/<meta name="description"[^>]*>/, (own) =>
      description === undefined ? own : meta('name', 'description', description),
    )
    .replace('</head>', () => `${head.tags}</head>`);
}
