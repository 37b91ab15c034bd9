import type { Page } from '@playwright/test';
import {
  expect,
  expectNoSevereAxeViolation,
  gotoHydrated,
  newRider,
  pageOnAnotherDevice,
  receivedMails,
  settingsForm,
  signUpForm,
  signUpOwner,
  testOnFreshShop,
} from './support';

/**
 * Back in stock (docs/product.md §27): a visitor of an open shop asks to be e-mailed when a size is back, logs in on the
 * way and comes back to the product; the owner restocks the size; the e-mail arrives once with the product's link. The
 * test opens its own shop (`testOnFreshShop`): it opens the shop to visitors and sells a size out.
 */
const test = testOnFreshShop;

const productForm = (page: Page) => page.getByRole('form', { name: 'Name, price and sizes' });
const cobStock = (page: Page) =>
  productForm(page).getByRole('group', { name: 'Size 2', exact: true }).getByLabel('Stock', { exact: true });

/** The owner's form of the Anky Bridle, Cob's stock set to `count` and saved as version `version`. */
async function setCob(page: Page, count: number, version: number): Promise<void> {
  await page.goto('/admin/products/1');
  await cobStock(page).fill(String(count));
  await productForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(productForm(page).getByRole('status')).toHaveText(`Saved. This is version ${version} of the product.`);
}

const subject = 'Anky Bridle, size Cob, is back';

test('a visitor waits for a size through a log-in, the owner restocks it, the e-mail arrives once with its link', async ({
  page,
  browser,
  shop,
}) => {
  await signUpOwner(page, shop);
  await page.goto('/admin/settings');
  await settingsForm(page).getByRole('group', { name: 'Who can see the shop' }).getByLabel('Everyone').check();
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText('Saved. This is version 2 of the settings.');
  await setCob(page, 0, 2);

  // A visitor on the product's page chooses the size sold out: the cart is not offered, the e-mail is.
  const visitor = await pageOnAnotherDevice(browser, shop.baseURL);
  await visitor.setViewportSize({ width: 375, height: 800 });
  await gotoHydrated(visitor, '/products/anky-bridle');
  const size = visitor.getByLabel('Size', { exact: true });
  await size.selectOption('Cob (sold out)');
  await expect(visitor.getByRole('button', { name: 'Add to cart: Anky Bridle' })).toBeDisabled();
  await expectNoSevereAxeViolation(visitor);
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await visitor.getByRole('button', { name: 'Email me when it is back' }).click();

  // Logged in first (a new account here), and back on the same product.
  await expect(visitor).toHaveURL(/\/signup-login\?next=%2Fproducts%2Fanky-bridle$/);
  const rider = newRider();
  await signUpForm(visitor).getByLabel('E-mail').fill(rider.email);
  await signUpForm(visitor).getByLabel('Password').fill(rider.password);
  await signUpForm(visitor).getByRole('button', { name: 'Sign up' }).click();
  await expect(visitor).toHaveURL(/\/products\/anky-bridle$/);
  await size.selectOption('Cob (sold out)');
  await visitor.getByRole('button', { name: 'Email me when it is back' }).click();
  await expect(visitor.getByRole('button', { name: 'We will email you' })).toBeVisible();
  // A second press asks nothing new.
  await visitor.getByRole('button', { name: 'We will email you' }).click();
  await expect(visitor.getByRole('button', { name: 'We will email you' })).toBeVisible();

  // The account lists the one alert, with since when and 'Cancel'.
  await visitor.goto('/manage-account');
  const alerts = visitor.getByRole('region', { name: 'Back-in-stock alerts' });
  await expect(alerts.getByRole('listitem')).toHaveCount(1);
  await expect(alerts.getByRole('listitem')).toContainText('Anky Bridle, size Cob');
  await expect(alerts.getByRole('listitem')).toContainText('Since');
  await expect(alerts.getByRole('button', { name: 'Cancel the alert for Anky Bridle, size Cob' })).toBeVisible();
  await expectNoSevereAxeViolation(visitor);
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The owner sees who waits, and restocks the size.
  await page.goto('/admin/products/1');
  await expect(page.getByText('Cob: 1')).toBeVisible();
  await setCob(page, 3, 3);
  await expect(page.getByText('Cob: 1')).toHaveCount(0);

  // One e-mail, with the product page's link; the alert has ended.
  const toRider = async () =>
    (await receivedMails()).filter((m) => m.to.includes(rider.email) && m.subject === subject);
  await expect.poll(async () => (await toRider()).length, { timeout: 10_000 }).toBe(1);
  const link = /https?:\/\/\S+\/products\/anky-bridle/.exec((await toRider())[0]?.text ?? '')?.[0];
  expect(link).toBeDefined();
  await visitor.goto(new URL(link ?? '').pathname);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Anky Bridle' })).toBeVisible();
  await visitor.goto('/manage-account');
  await expect(alerts.getByRole('listitem')).toHaveCount(0);
  // Saved again (more stock): still the one e-mail.
  await setCob(page, 4, 4);
  await visitor.waitForTimeout(1500);
  expect(await toRider()).toHaveLength(1);
});
