import { expect, test } from '@playwright/test';
import { addToCart, signUp } from './support';

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

for (const width of [375, 1280]) {
  test(`at ${width} px the footer never covers the end of the page`, async ({ page }) => {
    await page.setViewportSize({ width, height: 700 });
    await signUp(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lastButton = page.getByRole('button', { name: 'Add to cart: Fellmore Bridle' });
    const button = await lastButton.boundingBox();
    const footer = await page.getByRole('contentinfo').boundingBox();
    expect((button?.y ?? 0) + (button?.height ?? 0)).toBeLessThanOrEqual(footer?.y ?? 0);

    await addToCart(page, 'Anky Bridle');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const link = await page.getByRole('link', { name: 'Continue Shopping' }).boundingBox();
    const footerOnCart = await page.getByRole('contentinfo').boundingBox();
    expect((link?.y ?? 0) + (link?.height ?? 0)).toBeLessThanOrEqual(footerOnCart?.y ?? 0);
  });
}

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
  await signUp(page);
  await addToCart(page, 'Fellmore Bridle');
  await page.goto('/manage-account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await page.goto('/nowhere');
  await expect(page.getByRole('heading', { name: 'Snap!' })).toBeVisible();
  expect(violations).toEqual([]);
});
