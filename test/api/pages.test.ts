import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/first-catalogue';
import { pages } from '../../src/shared/pages';
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

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer();
  client = new Client(server.url);
});
afterAll(() => server.stop());

describe('pages', () => {
  it.each(Object.values(pages).map((page) => page.path))(
    'GET %s answers 200 text/html with the app, logged in or not',
    async (path) => {
      const index = requireBuild();
      const reply = await client.raw('GET', path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^text\/html\b/);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      expect(reply.body).toBe(index);
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
    expect(reply.body).toBe(index);
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
