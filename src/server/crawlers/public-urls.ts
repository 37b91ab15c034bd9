import { pages } from '../../shared/pages';
import { fillPath } from '../../shared/paths';

// The addresses and values the public pages' tags, the sitemap and the feed have in common (docs/product.md §24), so
// that a product is named the same way in each.

/** PUBLIC_URL without a trailing slash: every address a crawler is given starts with it. */
export function origin(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** An absolute address of ours for a path (`/products/x`), or a picture's URL as the catalogue keeps it. */
export function absolute(publicUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${origin(publicUrl)}${path}`;
}

/** Home's address for a list: of the query only the category and the page after the first (the canonical one). */
export function homeUrl(publicUrl: string, list: { category?: string; page?: number } = {}): string {
  const params = new URLSearchParams();
  if (list.category) params.set('category', list.category);
  if (list.page !== undefined && list.page > 1) params.set('page', String(list.page));
  const query = params.toString();
  return `${origin(publicUrl)}${pages.home.path}${query ? `?${query}` : ''}`;
}

/** A product's page by its current slug. */
export function productUrl(publicUrl: string, slug: string): string {
  return `${origin(publicUrl)}${fillPath(pages.product.path, { slug })}`;
}

/** Integer cents as a decimal with two places and a point, whatever the shop's locale: `30299` → `302.99`. */
export function decimalOf(cents: number): string {
  const whole = Math.trunc(Math.abs(cents) / 100);
  const rest = String(Math.abs(cents) % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${whole}.${rest}`;
}

/** One size of a product, as an offer's sku and the feed's `g:id`: its item number and the size's name. */
export function skuOf(itemid: string, size: string): string {
  return `${itemid}-${size}`;
}

/** At most `max` characters of `text` on one line, cut at a word with an ellipsis: a description's length. */
export function summary(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}
