import type { Browser, Page } from '@playwright/test';
import { cartTable, expect, gotoHydrated, openShopAsOwner, pageOnAnotherDevice, testOnFreshShop } from './support';

/**
 * The public pages of a shop open to everyone come rendered by the server (docs/product.md §24), and the browser takes
 * them over (hydrates) without changing them: the same page, no error, nothing moved, nothing fetched twice, and every
 * control working after. Each test opens its own shop: every other spec runs on a members-only shop.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

declare global {
  interface Window {
    /** The page's layout shifts so far, summed as CLS counts them (those right after an input left out). */
    layoutShift: number;
  }
}

/**
 * A visitor's page that records what a hydration that went wrong would show: the console's errors and warnings (a
 * hydration mismatch is one), the page's uncaught errors, its layout shifts, and every read of the API but the live
 * streams (the page's data is in its HTML: nothing should be asked again).
 */
async function visitor(browser: Browser, baseURL: string) {
  const page = await pageOnAnotherDevice(browser, baseURL);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/api/') && !pathname.endsWith('/stream')) reads.push(`${pathname}${search}`);
  });
  await page.addInitScript(() => {
    window.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) window.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return { page, errors, reads };
}

/** A script the pages never have: the HTML parser waits for it, as long as the test holds it back. */
const parserStop = '/__parser-stop.js';

/**
 * Makes the browser's HTML parser stop for a second in the footer of the page at `path`, after its first line and
 * before its credits, as a busy machine's parser may stop anywhere: a browser paints the part it has, and the rest
 * then moves what was painted (the fixed footer grows), a layout shift. The page must not be painted before its
 * content is all there (src/server/page-data.ts). The stop is a script that takes itself out as it runs: what the
 * browser hydrates is the server's HTML as it was sent.
 */
async function parserStopsInFooter(page: Page, path: string): Promise<void> {
  await page.route(
    (url) => url.pathname === parserStop,
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ contentType: 'text/javascript', body: 'document.currentScript.remove();' });
    },
  );
  await page.route(
    (url) => `${url.pathname}${url.search}` === path,
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const credits = html.indexOf('<p class="credits">');
      const body = `${html.slice(0, credits)}<script src="${parserStop}"></script>${html.slice(credits)}`;
      // The body as the browser reads it: neither its encoding nor its length any more.
      const { 'content-encoding': _encoding, 'content-length': _length, ...headers } = response.headers();
      await route.fulfill({ response, body: credits < 0 ? html : body, headers });
    },
  );
}

/**
 * Opens `path`, its parser stopped in the footer for a while (`parserStopsInFooter`), and waits until React has taken
 * the page over: the page's live stock stream is opened by an effect, and effects run only once the page is hydrated.
 */
async function openHydrated(page: Page, path: string): Promise<void> {
  await parserStopsInFooter(page, path);
  const stopped = page.waitForRequest((request) => new URL(request.url()).pathname === parserStop);
  const stream = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/catalogue/stream');
  await page.goto(path);
  await stopped;
  await stream;
}

/** The same address in a browser that runs no JavaScript, as a crawler or a link preview reads it. */
async function withoutJavaScript(browser: Browser, baseURL: string, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

test("a product's page is there before JavaScript, hydrates into the same page, and adds to the cart after", async ({
  page,
  browser,
  shop,
}) => {
  await openShopAsOwner(page, shop);

  const plain = await withoutJavaScript(browser, shop.baseURL, '/products/anky-bridle');
  await expect(plain.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();
  await expect(plain.getByText('$302.99')).toBeVisible();
  await expect(plain.getByRole('button', { name: 'Add to cart: Anky Bridle' })).toBeVisible();

  const { page: rider, errors, reads } = await visitor(browser, shop.baseURL);
  await openHydrated(rider, '/products/anky-bridle');
  await expect(rider.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();
  await expect(rider).toHaveTitle('Anky Bridle · Piaffe');
  expect(await rider.evaluate(() => window.layoutShift)).toBe(0);
  expect(reads).toEqual([]);

  await rider.getByLabel('Size', { exact: true }).selectOption('Cob');
  await rider.getByRole('button', { name: 'Add to cart: Anky Bridle' }).click();
  await expect(rider).toHaveURL(/\/cart$/);
  await expect(cartTable(rider)).toContainText('Anky Bridle, size Cob');
  expect(errors).toEqual([]);
});

test('a category and a search are there before JavaScript, hydrate into the same page, and search after', async ({
  page,
  browser,
  shop,
}) => {
  await openShopAsOwner(page, shop);

  const plain = await withoutJavaScript(browser, shop.baseURL, '/home?q=bridle');
  await expect(plain.getByRole('article')).toHaveCount(2);
  await expect(plain.getByRole('article', { name: 'Anky Bridle' })).toContainText('$302.99');

  const { page: rider, errors, reads } = await visitor(browser, shop.baseURL);
  await openHydrated(rider, '/home?category=bridles');
  await expect(rider.getByRole('article', { name: 'Anky Bridle' })).toBeVisible();
  await expect(rider.getByRole('link', { name: 'Bridles' })).toHaveAttribute('aria-current', 'page');
  await expect(rider).toHaveTitle('Bridles · Piaffe');
  expect(await rider.evaluate(() => window.layoutShift)).toBe(0);
  expect(reads).toEqual([]);

  await rider.getByRole('searchbox', { name: 'Search the shop' }).fill('Ariat');
  await rider.getByRole('button', { name: 'Search' }).click();
  await expect(rider).toHaveURL(/\/home\?q=Ariat&category=bridles$/);
  await rider.getByRole('link', { name: 'All products' }).click();
  await expect(rider.getByRole('article')).toHaveCount(1);
  await expect(rider.getByRole('article', { name: 'Ariat Westchester Boots' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a category brought back from the history, its data not used, is the category again for a visitor', async ({
  page,
  browser,
  shop,
}) => {
  await openShopAsOwner(page, shop);

  const { page: rider } = await visitor(browser, shop.baseURL);
  await openHydrated(rider, '/home?category=bridles');
  // The product's page hydrated, so that the stream asked for below is the category's.
  await gotoHydrated(rider, '/products/anky-bridle');
  await expect(rider.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();

  // The old HTML shows the category at once; then the app renders the page anew (lib/page-data.ts), once its guard
  // has let the visitor in, or sends them to signup-login as it did before it asked the server for the shop.
  const shown = Promise.race([
    rider.waitForRequest((request) => new URL(request.url()).pathname === '/api/catalogue/stream').then(() => 'page'),
    rider.waitForURL(/\/signup-login$/).then(() => 'signup-login'),
  ]);
  await rider.goBack();
  expect(await shown).toBe('page');
  // Loaded again from the browser's history, not kept whole in its back/forward cache: the case in question.
  const navigation = await rider.evaluate(() => performance.getEntriesByType('navigation')[0]?.toJSON());
  expect(navigation.type).toBe('back_forward');
  await expect(rider).toHaveURL(/\/home\?category=bridles$/);
  await expect(rider.getByRole('article', { name: 'Anky Bridle' })).toBeVisible();
  await expect(rider.getByRole('link', { name: 'Bridles' })).toHaveAttribute('aria-current', 'page');
});
