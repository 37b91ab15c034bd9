import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { Context } from 'hono';
import type { PageData } from '../shared/page-data';
import { findPage, type Page, startPage } from '../shared/pages';
import type { AppEnv } from './app-env';
import { acceptedEncodings, brotlied, brotliSuffix, gzipped } from './compression';
import type { Head } from './crawlers/head';
import { pageHtml } from './page-data';
import { pageModulePreloads } from './page-modules';

/** Brotli's quality for a page's HTML, made per request: quick, and within a few per cent of the highest. */
const pageBrotliQuality = 5;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

interface StaticFile {
  body: Uint8Array;
  gzipped?: Uint8Array;
  /** The build's Brotli copy (`x.js.br`, vite.config.ts), when it made one. */
  brotli?: Uint8Array;
  type: string;
  cacheControl: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function load(root: string, path: string): StaticFile {
  const body = readFileSync(path);
  const ext = extname(path);
  const hashed = relative(root, path).startsWith(`assets${sep}`);
  const brotliCopy = `${path}${brotliSuffix}`;
  return {
    body,
    gzipped: gzipped(path, body),
    brotli: existsSync(brotliCopy) ? readFileSync(brotliCopy) : undefined,
    type: types[ext] ?? 'application/octet-stream',
    // Vite puts a content hash in every name under assets/, so those never change.
    cacheControl: hashed
      ? 'public, max-age=31536000, immutable'
      : ext === '.html'
        ? 'no-cache'
        : 'public, max-age=3600',
  };
}

/**
 * Serves the built client from memory (it is small, and it never changes while the server runs): files by path, the
 * app's page routes with index.html and the page's data (`pageData`, ADR 0028), and any other path with index.html
 * (the Snap! page) and 404.
 */
export function staticFiles(
  root: string,
  pageData: (c: Context<AppEnv>, page: Page | undefined) => Promise<PageData>,
  pageHead?: (c: Context<AppEnv>, page: Page | undefined, data: PageData | undefined) => Promise<Head | undefined>,
  pageRender?: (c: Context<AppEnv>, page: Page | undefined, data: PageData) => Promise<string | undefined>,
) {
  const files = new Map<string, StaticFile>();
  try {
    for (const path of walk(root)) {
      const url = `/${relative(root, path).split(sep).join('/')}`;
      // Build artefacts such as .vite/manifest.json are not part of the site; Brotli copies go with their file.
      if (!url.includes('/.') && !url.endsWith(brotliSuffix)) files.set(url, load(root, path));
    }
  } catch {
    // No build yet: pages answer with a hint below, the API works regardless.
  }
  const index = files.get('/index.html');

  /**
   * index.html with the page's own modules to preload and its data: for this browser only, and never kept by a shared
   * cache.
   */
  async function sendPage(c: Context<AppEnv>, html: string, page: Page | undefined) {
    // Without its data (the database out of reach, say) the page still comes, and asks the server itself.
    const data = await pageData(c, page).catch((err: unknown) => {
      c.get('log')?.warn({ err }, 'page data unavailable: the page is sent without it');
      return undefined;
    });
    // The head is made from the same data (a page's data is read once per request); without it, index.html's head.
    const head = await pageHead?.(c, page, data).catch((err: unknown) => {
      c.get('log')?.warn({ err }, 'page head unavailable: the page is sent with index.html’s');
      return undefined;
    });
    // A public page's content, rendered from the same data (docs/product.md §24); without it, the empty root.
    const content =
      data &&
      (await pageRender?.(c, page, data).catch((err: unknown) => {
        c.get('log')?.warn({ err }, 'page not rendered: it is sent with an empty root');
        return undefined;
      }));
    const body = Buffer.from(pageHtml(html, data, (page && preloads.get(page.path)) ?? [], head, content));
    // Made per request: only in the encoding this browser takes.
    const accepted = acceptedEncodings(c.req.header('accept-encoding'));
    const compressed = accepted.br
      ? { brotli: brotlied('index.html', body, pageBrotliQuality) }
      : accepted.gzip
        ? { gzipped: gzipped('index.html', body) }
        : {};
    return send(
      c,
      { body, type: types['.html'] as string, cacheControl: 'private, no-cache', ...compressed },
      page ? 200 : 404,
      'Accept-Encoding, Cookie',
    );
  }

  function send(c: Context, file: StaticFile, status: 200 | 404, vary = 'Accept-Encoding') {
    const accepted = acceptedEncodings(c.req.header('accept-encoding'));
    const [encoding, body] =
      accepted.br && file.brotli
        ? ['br', file.brotli]
        : accepted.gzip && file.gzipped
          ? ['gzip', file.gzipped]
          : [undefined, file.body];
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Cache-Control': file.cacheControl,
      Vary: vary,
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    return c.body(body as Uint8Array<ArrayBuffer>, status, headers);
  }

  const indexHtml = index && Buffer.from(index.body).toString('utf8');
  // Preloads only speed a page up: a manifest that does not fit the pages (an older build) leaves them out.
  let preloads: ReadonlyMap<string, readonly string[]> = new Map();
  try {
    preloads = pageModulePreloads(root);
  } catch {}
  return (c: Context<AppEnv>) => {
    const path = c.req.path;
    if (path === '/') return c.redirect(startPage.path, 302);
    const file = files.get(path);
    if (file && path !== '/index.html') return send(c, file, 200);
    if (!indexHtml) return c.text('The Piaffe client is not built yet: run `npm run build`.', 503);
    return sendPage(c, indexHtml, findPage(path));
  };
}
