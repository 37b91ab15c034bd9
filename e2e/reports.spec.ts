import { readFileSync } from 'node:fs';
import { addToCart, expect, expectNoSevereAxeViolation, makeOwner, placeOrder, signUpConfirmed, test } from './support';

/** The owner's reports (docs/product.md §26). */

/** The shop's month now, `2026-11`, in its time zone. */
function thisMonth(): string {
  return new Date().toLocaleDateString('en-CA', { timeZone: 'America/New_York' }).slice(0, 7);
}

test("the owner opens 'Reports', changes the period and downloads the tax to file", async ({ page }) => {
  makeOwner(await signUpConfirmed(page));
  await addToCart(page, 'Anky Bridle');
  await placeOrder(page);

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'This month' })).toHaveAttribute('aria-current', 'page');
  // This month's figures count the order just placed; its chart's figures are a table too, a day a row.
  const orders = page.getByRole('term').filter({ hasText: /^Orders$/ });
  await expect(orders).toBeVisible();
  const daily = page.getByRole('table', { name: 'Net sales by day' });
  await expect(daily.getByRole('row')).not.toHaveCount(0);
  await expect(
    page.getByRole('table', { name: 'Sizes by units' }).getByRole('cell', { name: 'Anky Bridle, Full' }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'This year' }).click();
  await expect(page).toHaveURL(/\/admin\/reports\?period=this-year$/);
  await expect(page.getByRole('table', { name: 'Net sales by month' }).getByRole('row')).toHaveCount(13);

  const month = thisMonth();
  await page.getByLabel('From').fill(`${month}-01`);
  await page.getByLabel('To').fill(`${month}-02`);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${month}-01&to=${month}-02$`));
  await expect(page.getByRole('table', { name: 'Net sales by day' }).getByRole('row')).toHaveCount(3);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const csv = await download;
  expect(csv.suggestedFilename()).toBe(`piaffe-tax-${month}-01-to-${month}-02.csv`);
  expect(readFileSync(await csv.path(), 'utf8')).toContain('"From","To","Tax","Place","Country","Region","Collected"');

  // Two dates the wrong way round: said on the page, the dates still there to put right.
  await page.goto(`/admin/reports?from=${month}-02&to=${month}-01`);
  await expect(page.getByRole('alert')).toHaveText('to: from must not be after to.');
  await expect(page.getByLabel('From')).toBeVisible();
});

test('the reports page has no serious axe violation, and fits 375 px with its chart', async ({ page }) => {
  makeOwner(await signUpConfirmed(page));
  await addToCart(page, 'Anky Bridle');
  await placeOrder(page);
  await page.goto('/admin/reports?period=this-year');
  await expect(page.getByRole('table', { name: 'Net sales by month' })).toBeVisible();
  await expectNoSevereAxeViolation(page);

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/admin/reports');
  await expect(page.getByRole('table', { name: 'Net sales by day' })).toBeVisible();
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(375);
  const chart = await page.locator('.report-chart canvas').boundingBox();
  expect(chart?.width).toBeGreaterThan(300);
  expect(chart?.width).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);
});
