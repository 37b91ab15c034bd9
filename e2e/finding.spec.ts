import type { Page } from '@playwright/test';
import {
  expect,
  expectNoSevereAxeViolation,
  pageOnAnotherDevice,
  productCard,
  signUp,
  signUpOwner,
  test,
  testOnFreshShop,
} from './support';

/** Finding products on home (docs/product.md §22): search, categories, size, in stock only, in the address. */
const cardNames = (page: Page) => page.getByRole('article').getByRole('heading', { level: 2 });
const searchField = (page: Page) => page.getByRole('searchbox', { name: 'Search the shop' });
const categories = (page: Page) => page.getByRole('navigation', { name: 'Categories' });
const bridles = ['Anky Bridle', 'Fellmore Bridle'];

async function expectCards(page: Page, names: string[]): Promise<void> {
  await expect(cardNames(page)).toHaveText(names);
}

test('a search with a wrong letter finds the bridles; Back, Forward and a reload keep each list', async ({ page }) => {
  await signUp(page);
  await expect(cardNames(page)).toHaveCount(8);
  await searchField(page).fill('brdle');
  await searchField(page).press('Enter');
  await expect(page).toHaveURL(/\/home\?q=brdle$/);
  await expectCards(page, bridles);
  await expect(searchField(page)).toHaveValue('brdle');

  await searchField(page).fill('Ariat');
  await page.getByRole('button', { name: 'Search' }).click();
  await expectCards(page, ['Ariat Westchester Boots']);

  await page.goBack();
  await expect(page).toHaveURL(/\/home\?q=brdle$/);
  await expectCards(page, bridles);
  await expect(searchField(page)).toHaveValue('brdle');
  await page.reload();
  await expectCards(page, bridles);
  await expect(searchField(page)).toHaveValue('brdle');
  await page.goBack();
  await expect(cardNames(page)).toHaveCount(8);
  await page.goForward();
  await expectCards(page, bridles);

  await searchField(page).fill('zebra');
  await searchField(page).press('Enter');
  await expect(page.getByText('Nothing matches "zebra".')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);
  await expectNoSevereAxeViolation(page);
  await page.getByRole('link', { name: 'See every product' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(cardNames(page)).toHaveCount(8);
});

test('a category, a size and a shared link show the same list', async ({ page, browser }) => {
  await signUp(page);
  await categories(page).getByRole('link', { name: 'Boots' }).click();
  await expect(page).toHaveURL(/\/home\?category=boots$/);
  await expectCards(page, ['Ariat Westchester Boots', 'Carlson Tall Boots']);
  await expect(categories(page).getByRole('link', { name: 'Boots' })).toHaveAttribute('aria-current', 'page');

  await categories(page).getByRole('link', { name: 'All products' }).click();
  // The whole list shown before the size is chosen: chosen on the category's page, it keeps the category (a race).
  await expect(categories(page).getByRole('link', { name: 'All products' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('combobox', { name: 'Size', exact: true }).first().selectOption('Warmblood');
  await expect(page).toHaveURL(/\/home\?size=Warmblood$/);
  await expectCards(page, bridles);

  const other = await pageOnAnotherDevice(browser);
  await signUp(other);
  await other.goto(page.url());
  await expectCards(other, bridles);
  await expect(other.getByRole('combobox', { name: 'Size' }).first()).toHaveValue('Warmblood');
  await other.context().close();
});

test('keyboard only, on a phone: search, a category and the filters', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUp(page);
  await searchField(page).focus();
  await page.keyboard.type('jacket');
  await page.keyboard.press('Enter');
  await expectCards(page, ['Carlson Barn Jacket', 'Dakota Barn Jacket']);
  await expect(searchField(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Search' })).toBeFocused();
  // The size filter, then 'In stock only', ticked with the space bar.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Size' }).first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'In stock only' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\/home\?q=jacket&instock=1$/);
  await expect(page.getByRole('checkbox', { name: 'In stock only' })).toBeFocused();
  // All products, Bridles, Saddles, Boots, Jackets.
  for (let link = 0; link < 5; link++) await page.keyboard.press('Tab');
  await expect(categories(page).getByRole('link', { name: 'Jackets' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/home\?q=jacket&category=jackets&instock=1$/);
  await expectCards(page, ['Carlson Barn Jacket', 'Dakota Barn Jacket']);
  await expect(categories(page).getByRole('link', { name: 'Jackets' })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);
});

testOnFreshShop("'In stock only' follows a sell-out live", async ({ page, browser, shop }) => {
  const rider = await pageOnAnotherDevice(browser, shop.baseURL);
  await signUp(rider);
  await rider.goto('/home?category=saddles&instock=1');
  await expectCards(rider, ['Albion SLK Saddle']);
  await expect(rider.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();

  // The owner counts no saddle left, in every size.
  await signUpOwner(page, shop);
  await page.goto('/admin/products/2');
  const form = page.getByRole('form', { name: 'Name, price and sizes' });
  for (let place = 1; place <= 4; place++) {
    await form
      .getByRole('group', { name: `Size ${place}`, exact: true })
      .getByLabel('Stock', { exact: true })
      .fill('0');
  }
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText(/^Saved\./);

  // The rider's list, never reloaded, has no saddle left; all of the saddles, sold out, are still there.
  await expect(rider.getByText('Nothing matches these choices.')).toBeVisible();
  await rider.getByRole('checkbox', { name: 'In stock only' }).uncheck();
  await expect(productCard(rider, 'Albion SLK Saddle').getByText('Sold out', { exact: true })).toBeVisible();
  await rider.context().close();
});

test("a product's page: its pictures, the size guide and 'Add to Cart', by keyboard alone, on a phone", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUp(page);
  const card = productCard(page, 'Anky Bridle');
  await card.getByRole('link', { name: 'Details' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/products\/anky-bridle$/);
  await expect(page).toHaveTitle('Anky Bridle · Piaffe');
  await expect(page.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();
  await expect(page.getByText('$302.99', { exact: true })).toBeVisible();
  const picture = page.getByRole('list', { name: 'Pictures' }).getByRole('link', { name: 'Anky Bridle' });
  await expect(picture).toHaveAttribute('href', '/pictures/anky-bridle.svg');
  await expect(picture).toHaveAttribute('target', '_blank');

  await page.getByRole('button', { name: 'Size guide' }).focus();
  await page.keyboard.press('Enter');
  const guide = page.getByRole('dialog', { name: 'Size guide' });
  await expect(guide.getByRole('table', { name: 'Sizes of the Anky Bridle' })).toBeVisible();
  await expect(guide.getByRole('row', { name: 'Cob 40 cm 60 cm' })).toBeVisible();
  await expect(guide.getByRole('columnheader')).toHaveText(['Size', 'Browband', 'Noseband']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);
  await page.keyboard.press('Escape');
  await expect(guide).toBeHidden();
  await expect(page.getByRole('button', { name: 'Size guide' })).toBeFocused();

  // On to the size and 'Add to cart'.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Size', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add to cart: Anky Bridle' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Please choose a size.');
  await expect(page.getByLabel('Size', { exact: true })).toBeFocused();
  await page.getByLabel('Size', { exact: true }).selectOption('Cob');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole('table', { name: 'Your cart' })).toContainText('Anky Bridle');
});

testOnFreshShop(
  "a product's page follows its stock and price live; hidden, it is not found",
  async ({ page, browser, shop }) => {
    const rider = await pageOnAnotherDevice(browser, shop.baseURL);
    await signUp(rider);
    await rider.goto('/products/fellmore-bridle');
    await expect(rider.getByRole('heading', { level: 1, name: 'Fellmore Bridle' })).toBeVisible();

    await signUpOwner(page, shop);
    await page.goto('/admin/products/8');
    const form = page.getByRole('form', { name: 'Name, price and sizes' });
    await form.getByLabel('Price', { exact: true }).fill('350.00');
    await form.getByRole('group', { name: 'Size 2', exact: true }).getByLabel('Stock', { exact: true }).fill('2');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Saved\./);

    await expect(rider.getByText('$350.00', { exact: true })).toBeVisible();
    await expect(
      rider.getByLabel('Size', { exact: true }).getByRole('option', { name: 'Cob (only 2 left)' }),
    ).toBeAttached();

    await form.getByLabel('Shown on the home page').uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Saved\./);
    await expect(rider.getByRole('heading', { name: 'Snap!' })).toBeVisible();
    await rider.goto('/products/no-such-product');
    await expect(rider.getByRole('heading', { name: 'Snap!' })).toBeVisible();
    await rider.context().close();
  },
);
