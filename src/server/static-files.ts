import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { findPage, startPage } from '../shared/pages';

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
const compressible = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.webmanifest']);

interface StaticFile {
  body: Uint8Array;
  gzipped?: Uint8Array;
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
  return {
    body,
    gzipped: compressible.has(ext) && body.length > 1024 ? gzipSync(body) : undefined,
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
 * Serves the built client from memory (it is small, and it never changes while the server runs):
 * files by path, the app's page routes with index.html, and any other path with index.html and 404.
 */
export function staticFiles(root: string) {
  const files = new Map<string, StaticFile>();
  try {
    for (const path of walk(root)) {
      const url = `/${relative(root, path).split(sep).join('/')}`;
      // Build artefacts such as .vite/manifest.json are not part of the site.
      if (!url.includes('/.')) files.set(url, load(root, path));
    }
  } catch {
    // No build yet: pages answer with a hint below, the API works regardless.
  }
  const index = files.get('/index.html');

  function send(c: Context, file: StaticFile, status: 200 | 404) {
    const gzip = file.gzipped && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Cache-Control': file.cacheControl,
      Vary: 'Accept-Encoding',
    };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    return c.body((gzip ? file.gzipped : file.body) as Uint8Array<ArrayBuffer>, status, headers);
  }

  return (c: Context) => {
    const path = c.req.path;
    if (path === '/') return c.redirect(startPage.path, 302);
    const file = files.get(path);
    if (file && path !== '/index.html') return send(c, file, 200);
    if (!index) return c.text('The Piaffe client is not built yet: run `npm run build`.', 503);
    return send(c, index, findPage(path) ? 200 : 404);
  };
}
