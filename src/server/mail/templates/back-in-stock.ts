import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent to each rider who waited for a size, once, when its stock rises above zero (docs/product.md §27). */
export function backInStock(
  { product, size, slug }: { product: string; size: string; slug: string },
  site: Site,
): Letter {
  return {
    subject: `${product}, size ${size}, is back`,
    greeting: 'Hello,',
    blocks: [
      `${product} is back in stock in size ${size}, which you asked us to tell you about. We keep nothing aside: the first riders to order it get it.`,
      { link: links.product(site, slug), label: 'See the product' },
    ],
  };
}
