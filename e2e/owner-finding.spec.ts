import type { Page } from '@playwright/test';
import { jpegPicture } from '../test/support/pictures';
import {
  expect,
  expectNoSevereAxeViolation,
  pageOnAnotherDevice,
  productCard,
  signUp,
  signUpOwner,
  testOnFreshShop,
} from './support';

/**
 * The owner's side of finding products in the browser (docs/product.md §22): categories, a product's categories and
 * size guide, and its pictures, as a rider then sees them. Each test changes the catalogue, so it has a shop of its own.
 */
const test = testOnFreshShop;

const media = /^\/media\/[0-9a-f]{64}\.webp$/;
const categoryNames = (page: Page) =>
  page.getByRole('list').filter({ has: page.getByRole('button', { name: /^Move up/ }) });

test('the owner adds and moves up a category, puts a product in it with a size guide and a new first picture; a rider sees them', async ({
  page,
  shop,
  browser,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpOwner(page, shop);

  // The categories, from the back office's navigation.
  await page.goto('/admin/products');
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Categories' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
  const added = page.getByRole('region', { name: 'New category' });
  await added.getByRole('button', { name: 'Add category' }).click();
  await expect(added.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Name is required.');
  await added.getByLabel('Name', { exact: true }).fill('Show jackets');
  await added.getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByRole('status')).toHaveText('Added “Show jackets”.');
  const headings = categoryNames(page).getByRole('heading', { level: 2 });
  await expect(headings).toHaveText(['Bridles', 'Saddles', 'Boots', 'Jackets', 'Saddle pads', 'Show jackets']);
  await page.getByRole('button', { name: 'Move up Show jackets' }).click();
  await expect(page.getByRole('status')).toHaveText('Moved “Show jackets” up.');
  await expect(headings).toHaveText(['Bridles', 'Saddles', 'Boots', 'Jackets', 'Show jackets', 'Saddle pads']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);

  // A product in it, with a size guide of its own.
  await page.goto('/admin/products');
  await page
    .getByRole('table', { name: 'Products' })
    .getByRole('link', { name: 'Dakota Barn Jacket', exact: true })
    .click();
  const form = page.getByRole('form', { name: 'Name, price and sizes' });
  const categories = form.getByRole('group', { name: 'Categories' });
  await expect(categories.getByRole('checkbox', { name: 'Jackets', exact: true })).toBeChecked();
  await categories.getByRole('checkbox', { name: 'Show jackets' }).check();
  const guide = form.getByLabel('Size guide', { exact: true });
  await guide.fill('Size | Chest\nS | 86 cm | extra');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(guide).toHaveAttribute('aria-invalid', 'true');
  await expect(guide).toHaveAccessibleDescription(/A size guide has 2 to 6 columns, the same in every row\./);
  await guide.fill('Size | Chest\nS | 86 cm\nM | 94 cm');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved. This is version 2 of the product.');

  // A second picture, made the first.
  const pictures = page.getByRole('region', { name: 'Pictures' });
  await pictures
    .getByLabel('Another picture')
    .setInputFiles({ name: 'dakota.jpg', mimeType: 'image/jpeg', buffer: await jpegPicture() });
  await pictures.getByRole('button', { name: 'Add picture' }).click();
  await expect(pictures.getByRole('status')).toHaveText('Picture 2 is added.');
  const second = await pictures.getByRole('img', { name: 'Dakota Barn Jacket, 2 of 2' }).getAttribute('src');
  expect(second).toMatch(media);
  await pictures.getByRole('button', { name: 'Move up picture 2' }).click();
  await expect(pictures.getByRole('status')).toHaveText('Picture 2 is now picture 1.');
  await expect(pictures.getByRole('img', { name: 'Dakota Barn Jacket, 1 of 2' })).toHaveAttribute('src', second ?? '');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(page.getByRole('table', { name: 'History' }).getByRole('row').nth(1)).toContainText(
    'Pictures reordered',
  );
  // With its history: a table wider than the phone scrolls in a box the keyboard reaches (data-table.tsx).
  await expectNoSevereAxeViolation(page);

  // A rider sees the category in its place, the product in it with its new picture first, and its size guide.
  const rider = await pageOnAnotherDevice(browser, shop.baseURL, { viewport: { width: 375, height: 740 } });
  await signUp(rider);
  const nav = rider.getByRole('navigation', { name: 'Categories' });
  await expect(nav.getByRole('link')).toContainText(['Jackets', 'Show jackets', 'Saddle pads']);
  await nav.getByRole('link', { name: 'Show jackets' }).click();
  await expect(rider).toHaveURL(/category=show-jackets/);
  await expect(rider.getByRole('article').getByRole('heading', { level: 2 })).toHaveText(['Dakota Barn Jacket']);
  const card = productCard(rider, 'Dakota Barn Jacket');
  await expect(card.getByRole('img').first()).toHaveAttribute('src', second ?? '');
  await card.getByRole('link', { name: 'Details' }).click();
  await expect(rider.getByRole('heading', { level: 1, name: 'Dakota Barn Jacket' })).toBeVisible();
  await expect(rider.getByRole('list', { name: 'Pictures' }).getByRole('listitem')).toHaveCount(2);
  await rider.getByRole('button', { name: 'Size guide' }).click();
  const dialog = rider.getByRole('dialog', { name: 'Size guide' });
  await expect(dialog.getByRole('columnheader')).toHaveText(['Size', 'Chest']);
  await expect(dialog.getByRole('row', { name: 'M 94 cm' })).toBeVisible();
  await expectNoSevereAxeViolation(rider);
  await rider.context().close();
});

test("the owner adds a product in a category from the 'New product' form; it is on that category's page", async ({
  page,
  shop,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpOwner(page, shop);
  await page.goto('/admin/products');
  await page.getByRole('link', { name: 'Add a product' }).click();
  const form = page.getByRole('form', { name: 'New product' });
  await form.getByLabel('Name', { exact: true }).fill('Fleece Half Pad');
  await form.getByLabel('Price', { exact: true }).fill('89');
  await form.getByLabel('Shown on the home page').check();
  const size = form.getByRole('group', { name: 'Size 1', exact: true });
  await size.getByLabel('Size name', { exact: true }).fill('Full');
  await size.getByLabel('Stock', { exact: true }).fill('4');
  const categories = form.getByRole('group', { name: 'Categories' });
  await expect(categories.getByRole('checkbox', { checked: true })).toHaveCount(0);
  await categories.getByRole('checkbox', { name: 'Saddle pads' }).check();
  await expectNoSevereAxeViolation(page);
  await form.getByRole('button', { name: 'Add product' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Fleece Half Pad' })).toBeVisible();
  const saved = page.getByRole('form', { name: 'Name, price and sizes' }).getByRole('group', { name: 'Categories' });
  await expect(saved.getByRole('checkbox', { name: 'Saddle pads' })).toBeChecked();
  await expect(saved.getByRole('checkbox', { checked: true })).toHaveCount(1);
  await page.goto('/home');
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Saddle pads' }).click();
  await expect(page).toHaveURL(/category=saddle-pads/);
  await expect(page.getByRole('article').getByRole('heading', { level: 2 })).toHaveText([
    'Crochet Saddle Blanket',
    'Fleece Half Pad',
  ]);
});

test('removing a category with products asks first; its products stay in the shop', async ({ page, shop }) => {
  await signUpOwner(page, shop);
  await page.goto('/admin/categories');
  await page.getByRole('button', { name: 'Remove Saddles' }).click();
  const ask = page.getByRole('alert');
  await expect(ask).toContainText('This category has 1 product. Confirm that they leave it');
  await ask.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Saddles' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove Saddles' }).click();
  await page.getByRole('button', { name: 'Remove “Saddles” and take its products out of it' }).click();
  await expect(page.getByRole('status')).toHaveText('Removed “Saddles”.');
  await expect(page.getByRole('heading', { level: 2, name: 'Saddles' })).toHaveCount(0);
  await page.goto('/home');
  await expect(page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Saddles' })).toHaveCount(
    0,
  );
  await expect(productCard(page, 'Albion SLK Saddle')).toBeVisible();
});
