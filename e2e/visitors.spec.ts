import type { Page } from '@playwright/test';
import {
  cartTable,
  checkoutForm,
  confirmAddress,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  gotoHydrated,
  newRider,
  openShopAsOwner,
  openTo,
  pageOnAnotherDevice,
  signUpForm,
  testOnFreshShop,
} from './support';

/**
 * A shop open to visitors, if the owner wants (docs/product.md §23). Each test opens its own shop (`testOnFreshShop`):
 * every other spec runs on a members-only shop, as every shop starts.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

/** On the product's page: a size chosen and 'Add to cart'; the cart page shows it. */
async function addOnProductPage(page: Page, size: string): Promise<void> {
  await page.getByLabel('Size', { exact: true }).selectOption(size);
  await page.getByRole('button', { name: 'Add to cart: Anky Bridle' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartTable(page)).toContainText(`Anky Bridle, size ${size}`);
}

test('a visitor finds a bridle, fills a cart, checks out through sign-up, and orders both lines; a closed shop sends the visitor away', async ({
  page,
  browser,
  shop,
}) => {
  await openShopAsOwner(page, shop);

  const visitor = await pageOnAnotherDevice(browser, shop.baseURL);
  await gotoHydrated(visitor, '/home');
  await expect(visitor.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
  const header = visitor.getByRole('navigation', { name: 'Main' });
  await expect(header.getByRole('link')).toHaveText(['view cart', 'Log in']);
  await visitor.getByRole('searchbox', { name: 'Search the shop' }).fill('bridle');
  await visitor.getByRole('button', { name: 'Search' }).click();
  await visitor.getByRole('article', { name: 'Anky Bridle' }).getByRole('link', { name: 'Details' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();
  await visitor.getByRole('button', { name: 'Size guide' }).click();
  await expect(visitor.getByRole('dialog', { name: 'Size guide' })).toBeVisible();
  await visitor.keyboard.press('Escape');
  await addOnProductPage(visitor, 'Cob');
  await visitor.goBack();
  await addOnProductPage(visitor, 'Full');

  await visitor.getByRole('link', { name: 'Checkout' }).click();
  await expect(visitor).toHaveURL(/\/signup-login\?next=%2Fcheckout$/);
  await expect(visitor.getByRole('status')).toHaveText('Sign up or log in to check out. Your cart is kept.');
  const rider = newRider();
  await signUpForm(visitor).getByLabel('E-mail').fill(rider.email);
  await signUpForm(visitor).getByLabel('Password').fill(rider.password);
  await signUpForm(visitor).getByRole('button', { name: 'Sign up' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await confirmAddress(visitor, rider);
  await visitor.goto('/checkout');
  await fillAddress(visitor);
  await checkoutForm(visitor).getByRole('button', { name: 'Place order' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(visitor.getByRole('main')).toContainText('Anky Bridle, size Cob');
  await expect(visitor.getByRole('main')).toContainText('Anky Bridle, size Full');

  // Another visitor's page is open when the owner closes the shop: it goes to signup-login at once.
  const another = await pageOnAnotherDevice(browser, shop.baseURL);
  await gotoHydrated(another, '/home');
  await expect(another.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
  await openTo(page, 'Members only', 3);
  await expect(another).toHaveURL(/\/signup-login$/, { timeout: 5000 });
  await expect(another.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Log in']);
});

test("a visitor's pages have no serious axe violation and fit 375 px", async ({ page, browser, shop }) => {
  await openShopAsOwner(page, shop);
  const visitor = await pageOnAnotherDevice(browser, shop.baseURL);
  await visitor.setViewportSize({ width: 375, height: 740 });
  for (const [path, heading] of [
    ['/home', 'Our collection'],
    ['/products/anky-bridle', 'Anky Bridle'],
    ['/cart', 'Your cart'],
    ['/signup-login?next=%2Fcheckout', /^Welcome to/],
  ] as const) {
    await visitor.goto(path);
    await expect(visitor.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    await expectNoSevereAxeViolation(visitor);
  }
});
