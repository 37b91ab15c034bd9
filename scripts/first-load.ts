// What a browser fetches on a page's first load, counted in Chromium (ADR 0028): the scripts as the server sends
// them, until the network is idle. Used by the budget check (scripts/check-budget.ts) and the front-end bench.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { gzipped } from '../src/server/compression';
import { pages } from '../src/shared/pages';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** How long the network must stay quiet (no request begun or ended, live streams aside) to count as idle. */
const quietMs = 1000;
/** A page that is still fetching after this fails the check rather than hanging it. */
const idleTimeoutMs = 20_000;

export interface FetchedScript {
  /** The path, e.g. `/assets/vendor-….js`. */
  path: string;
  /** `Content-Encoding` as the browser received it: `br`, `gzip`, or `identity`. */
  encoding: string;
  /** The body's bytes on the wire, as the server sent them. */
  bytes: number;
  /** The same file as the server gzips it, for browsers that take no Brotli. */
  gzipBytes: number;
}

export interface FirstLoad {
  /** What was opened, e.g. `/home (rider)`. */
  name: string;
  /** The page opened, e.g. `/home`. */
  path: string;
  /** Where the page ended (a visitor's `/home` ends on the sign-up page). */
  landedOn: string;
  scripts: FetchedScript[];
  bytes: number;
  gzipBytes: number;
}

/**
 * A rider signed up through the pages as a person would, with `items` products added to the cart, and the cookies
 * and stored session hint a returning rider's browser has.
 */
export async function riderWithItems(browser: Browser, baseUrl: string, items: string[]): Promise<StorageState> {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    const page = await context.newPage();
    await page.goto(pages.signupLogin.path);
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('E-mail').fill(`rider-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`);
    await form.getByLabel('Password').fill('Canter-42');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/home$/);
    for (const product of items) {
      if (!page.url().endsWith(pages.home.path)) await page.goto(pages.home.path);
      // A settled page: twice, on a machine under heavy load, a size chosen in the page's first moments was not the
      // one added (ADR 0028); not seen since, in 40 tries at 8x CPU.
      await networkIdle(page);
      const card = page.getByRole('article', { name: product });
      // The first size in stock, for a product that comes in several.
      const size = card.getByLabel('Size');
      if ((await size.count()) > 0) {
        const inStock = await size.locator('option:not([disabled]):not([value=""])').first().getAttribute('value');
        await size.selectOption(inStock ?? '');
      }
      await card.getByRole('button', { name: `Add to cart: ${product}` }).click();
      await page.waitForURL(/\/cart$/);
    }
    if (items.length > 0) {
      await expect(
        page.getByRole('table', { name: 'Your cart' }).getByRole('button', { name: /^Delete / }),
      ).toHaveCount(items.length);
    }
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Resolves once no request (but live streams) has begun or ended for `quietMs`, after the load event. */
async function networkIdle(page: Page): Promise<void> {
  const inFlight = new Set<unknown>();
  let lastActivity = Date.now();
  const counts = (request: { resourceType(): string }) => request.resourceType() !== 'eventsource';
  page.on('request', (request) => {
    if (!counts(request)) return;
    inFlight.add(request);
    lastActivity = Date.now();
  });
  const settled = (request: unknown) => {
    if (inFlight.delete(request)) lastActivity = Date.now();
  };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  const deadline = Date.now() + idleTimeoutMs;
  while (inFlight.size > 0 || Date.now() - lastActivity < quietMs) {
    if (Date.now() > deadline) throw new Error(`${page.url()}: the network was not idle after ${idleTimeoutMs} ms.`);
    await page.waitForTimeout(100);
  }
}

/**
 * Opens `path` in a new context (an empty HTTP cache: a first visit), waits for its page and for the network to be
 * idle, and counts every script the browser received.
 */
export async function firstLoad(
  browser: Browser,
  options: { name: string; baseUrl: string; path: string; distDir: string; state?: StorageState },
): Promise<FirstLoad> {
  const context = await browser.newContext({
    baseURL: options.baseUrl,
    ...(options.state ? { storageState: options.state } : {}),
  });
  try {
    const page = await context.newPage();
    const responses: Array<Promise<FetchedScript>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const path = new URL(response.url()).pathname;
      responses.push(
        (async () => {
          const sizes = await response.request().sizes();
          const headers = await response.allHeaders();
          return {
            path,
            encoding: headers['content-encoding'] ?? 'identity',
            bytes: sizes.responseBodySize,
            gzipBytes: gzipBytesOf(options.distDir, path),
          };
        })(),
      );
    });
    const idle = networkIdle(page);
    await page.goto(options.path, { waitUntil: 'load' });
    // The page's own heading, not the Snap! page or an error.
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.locator('main h1')).not.toHaveText(/Snap!|Something went wrong/);
    await idle;
    const scripts = await Promise.all(responses);
    return {
      name: options.name,
      path: options.path,
      landedOn: new URL(page.url()).pathname,
      scripts,
      bytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
      gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    };
  } finally {
    await context.close();
  }
}

/** What the server sends a browser that takes gzip but not Brotli (src/server/static-files.ts). */
export function gzipBytesOf(distDir: string, path: string): number {
  const body = readFileSync(join(distDir, path));
  return (gzipped(path, body) ?? body).length;
}
