import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import type { PageData } from '../../shared/page-data';
import { type Page, pages } from '../../shared/pages';
import type { AppEnv } from '../app-env';

/** The build's rendering of a public page (src/client/server-render.tsx, built into dist/.ssr by scripts/build.mjs). */
type RenderPage = (url: string, data: PageData) => Promise<string | undefined>;

/** What the kept renderings may hold, in characters of their keys and HTML (some 32 MB at two bytes a character). */
const keptChars = 16 * 1024 * 1024;

/**
 * Visitors' renderings, by the page's address, its data as JSON and the year (the footer's): a rendering is the
 * function of those alone, so any change the page would show (a price, a stock, a picture, the shop's name) makes
 * another key, and nothing kept is ever stale. The least recently used go first once `keptChars` is reached. A
 * signed-in rider's page is not kept (their e-mail address may be on it, and no other rider asks for it).
 */
function keptRenderings() {
  const kept = new Map<string, string>();
  let chars = 0;
  return {
    get(key: string): string | undefined {
      const html = kept.get(key);
      if (html === undefined) return undefined;
      kept.delete(key);
      kept.set(key, html);
      return html;
    },
    set(key: string, html: string): void {
      // Two requests rendering the same page at once keep it once.
      if (kept.has(key) || key.length + html.length > keptChars / 8) return;
      kept.set(key, html);
      chars += key.length + html.length;
      for (const [oldest, old] of kept) {
        if (chars <= keptChars) break;
        kept.delete(oldest);
        chars -= oldest.length + old.length;
      }
    },
  };
}

/**
 * The content of a public page's `#root` for its request (docs/product.md §24, ADR 0063): home (a list, a category, a
 * search) and a product's page of a shop open to everyone, rendered from the app's own components with the data the
 * page already carries (nothing is read again), and kept for the next visitor who gets the same data. Undefined for
 * every other page, for a members-only shop (its pages stay empty until JavaScript runs, as before), and when the
 * build has no rendering (a client built before it).
 */
export function pageRender(distDir: string) {
  // Where scripts/build.mjs puts it, under the built client it renders for.
  const file = join(distDir, '.ssr', 'render.js');
  // Loaded with the first page that needs it, once.
  let render: Promise<RenderPage | undefined> | undefined;
  const kept = keptRenderings();
  return async (c: Context<AppEnv>, page: Page | undefined, data: PageData): Promise<string | undefined> => {
    if (data.shop.access.openTo !== 'everyone') return undefined;
    if (!((page === pages.home && data.catalogue) || (page === pages.product && data.product))) return undefined;
    render ??= existsSync(file)
      ? import(pathToFileURL(file).href).then((module: { renderPage: RenderPage }) => module.renderPage)
      : Promise.resolve(undefined);
    const renderPage = await render;
    if (!renderPage) return undefined;
    if (data.session) return renderPage(c.req.url, data);
    const { pathname, search } = new URL(c.req.url);
    const key = `${new Date().getFullYear()}${pathname}${search}\n${JSON.stringify(data)}`;
    const known = kept.get(key);
    if (known !== undefined) return known;
    const html = await renderPage(c.req.url, data);
    if (html !== undefined) kept.set(key, html);
    return html;
  };
}
