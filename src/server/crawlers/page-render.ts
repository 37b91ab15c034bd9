import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import type { PageData } from '../../shared/page-data';
import { type Page, pages } from '../../shared/pages';
import type { AppEnv } from '../app-env';

/** The build's rendering of a public page (src/client/server-render.tsx, built into dist/.ssr by scripts/build.mjs). */
type RenderPage = (url: string, data: PageData) => Promise<string | undefined>;

/** Where scripts/build.mjs puts it, under the built client it renders for. */
export const renderModule = (distDir: string) => join(distDir, '.ssr', 'render.js');

/**
 * The content of a public page's `#root` for its request (docs/product.md §24, ADR 0063): home (a list, a category, a
 * search) and a product's page of a shop open to everyone, rendered from the app's own components with the data the
 * page already carries (nothing is read again). Undefined for every other page, for a members-only shop (its pages
 * stay empty until JavaScript runs, as before), and when the build has no rendering (a client built before it).
 */
export function pageRender(distDir: string) {
  const file = renderModule(distDir);
  // Loaded with the first page that needs it, once.
  let render: Promise<RenderPage | undefined> | undefined;
  return async (c: Context<AppEnv>, page: Page | undefined, data: PageData): Promise<string | undefined> => {
    if (data.shop.access.openTo !== 'everyone') return undefined;
    if (!((page === pages.home && data.catalogue) || (page === pages.product && data.product))) return undefined;
    render ??= existsSync(file)
      ? import(pathToFileURL(file).href).then((module: { renderPage: RenderPage }) => module.renderPage)
      : Promise.resolve(undefined);
    return (await render)?.(c.req.url, data);
  };
}
