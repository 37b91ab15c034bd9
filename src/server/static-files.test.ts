import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { pageDataElementId } from '../shared/page-data';
import { publicShopOf } from '../shared/settings';
import type { AppEnv } from './app-env';
import { newShopSettings } from './db/new-shop-settings';
import { staticFiles } from './static-files';

const html = '<!doctype html><html><head><title>Piaffe</title></head><body><div id="root"></div></body></html>';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A built client of one page, with a manifest as given. */
function build(manifest: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-static-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'index.html'), html);
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), manifest);
  return dir;
}

function app(dir: string, pageData: Parameters<typeof staticFiles>[1]) {
  return new Hono<AppEnv>().get('*', staticFiles(dir, pageData));
}

describe('static files', () => {
  it('sends a page without its data when the data cannot be read (the page asks the server itself)', async () => {
    const down = app(build('{}'), async () => {
      throw new Error('the database is out of reach');
    });
    const reply = await down.request('/home');
    expect(reply.status).toBe(200);
    const body = await reply.text();
    expect(body).not.toContain(pageDataElementId);
    expect(body).toBe(html);
  });

  it('starts, and sends pages without preloads, when the manifest does not fit the pages', async () => {
    for (const manifest of [
      '{not json',
      '{}',
      '{"src/client/main.tsx": {"file": "assets/index.js", "isEntry": true}}',
    ]) {
      const reply = await app(build(manifest), async () => ({
        session: null,
        shop: publicShopOf(newShopSettings),
      })).request('/home');
      expect(reply.status, manifest).toBe(200);
      expect(await reply.text(), manifest).not.toContain('modulepreload');
    }
  });
});
