import type { Locator, Page } from '@playwright/test';
import { addToCart, expect, signUp, test } from './support';

test('the footer shows address, phone, copyright and credits, fixed to the bottom', async ({ page }) => {
  await signUp(page);
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('12 Arena Lane, Wellington, FL 33414')).toBeVisible();
  await expect(footer.getByText('(561) 555-0142')).toBeVisible();
  await expect(footer.getByText(`© ${new Date().getFullYear()} Piaffe`)).toBeVisible();
  await expect(footer.getByText('Product pictures: original vector drawings made for Piaffe.')).toBeVisible();

  const viewport = page.viewportSize();
  const atTop = await footer.boundingBox();
  expect(Math.round((atTop?.y ?? 0) + (atTop?.height ?? 0))).toBe(viewport?.height);
  await page.mouse.wheel(0, 600);
  await expect
    .poll(async () => {
      const box = await footer.boundingBox();
      return Math.round((box?.y ?? 0) + (box?.height ?? 0));
    })
    .toBe(viewport?.height);
});

/**
 * Scrolls to the very end of the page and checks that `last` ends above the fixed footer. Repeated until it
 * holds: the app scrolls a newly shown page to its top itself, which can land after a scroll of ours. A
 * footer that covers the content fails every attempt.
 */
async function expectEndAboveFooter(page: Page, last: Locator): Promise<void> {
  const footer = page.getByRole('contentinfo');
  await expect
    .poll(async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const item = await last.boundingBox();
      const bar = await footer.boundingBox();
      return (item?.y ?? 0) + (item?.height ?? 0) <= (bar?.y ?? 0);
    })
    .toBe(true);
}

for (const width of [375, 1280]) {
  test(`at ${width} px the footer never covers the end of the page`, async ({ page }) => {
    await page.setViewportSize({ width, height: 700 });
    await signUp(page);
    const lastButton = page.getByRole('button', { name: 'Add to cart: Fellmore Bridle' });
    // The page must be whole before its end means anything.
    await expect(lastButton).toBeVisible();
    await expectEndAboveFooter(page, lastButton);

    await addToCart(page, 'Anky Bridle');
    const continueShopping = page.getByRole('link', { name: 'Continue Shopping' });
    await expect(continueShopping).toBeVisible();
    await expectEndAboveFooter(page, continueShopping);
  });
}

test('each page appears whole on first load, never as the frame with an empty main area first', async ({ page }) => {
  await signUp(page);
  // A slow network: each page's chunk comes in well after the app's own code.
  await page.route('**/assets/*-page-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  // Records whether <main> had content each time the document changed, from the very first change on.
  await page.addInitScript(() => {
    const mainFilled: boolean[] = [];
    Object.assign(window, { mainFilled });
    new MutationObserver(() => {
      const main = document.querySelector('main');
      if (main) mainFilled.push(main.childElementCount > 0);
    }).observe(document, { childList: true, subtree: true });
  });
  const firstPaints = [
    { path: '/home', heading: 'Our collection' },
    { path: '/cart', heading: 'Your cart' },
    { path: '/manage-account', heading: 'Your account' },
    { path: '/signup-login', heading: 'Welcome to Piaffe' },
    { path: '/nowhere', heading: 'Snap!' },
  ];
  for (const { path, heading } of firstPaints) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { mainFilled: boolean[] }).mainFilled[0])).toBe(true);
  }
});

test('thumbnails keep their space before they load', async ({ page }) => {
  await signUp(page);
  await page.route('**/pictures/**', () => {}); // never answers
  await page.reload();
  const thumbnail = page.getByRole('img', { name: 'Anky Bridle' });
  const box = await thumbnail.boundingBox();
  expect(box?.width).toBeGreaterThan(100);
  expect(box?.height).toBe(box?.width);
});

test('no page breaks the Content-Security-Policy', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // A blocked eval that the script catches (zod's probe for `new Function`) logs nothing to the console; the
  // browser still records it, as this event and as an issue in DevTools (Lighthouse's Best Practices counts it).
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  await signUp(page);
  await addToCart(page, 'Fellmore Bridle');
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
  await page.goto('/manage-account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await page.goto('/nowhere');
  await expect(page.getByRole('heading', { name: 'Snap!' })).toBeVisible();
  expect(violations).toEqual([]);
});
