import type { Browser, Page } from '@playwright/test';
import {
  addToCart,
  cartTable,
  deleteButtons,
  expect,
  itemText,
  logIn,
  pageOnAnotherDevice,
  type Rider,
  signUp,
  test,
  totalCell,
} from './support';

async function openCart(page: Page): Promise<void> {
  await page.goto('/cart');
  await expect(totalCell(page)).toBeVisible();
}

test('two pages of one rider: an add and a delete on one show on the other without reload', async ({
  page,
  context,
}) => {
  await signUp(page);
  const other = await context.newPage();
  await openCart(other);
  await expect(totalCell(other)).toHaveText('0');

  await addToCart(page, 'Anky Bridle');
  await expect(cartTable(other).getByRole('row', { name: /Anky Bridle/ })).toBeVisible();
  await expect(totalCell(other)).toHaveText('$302.99');

  await other.getByRole('button', { name: `Delete ${itemText('Anky Bridle')}` }).click();
  await expect(deleteButtons(page)).toHaveCount(0);
  await expect(totalCell(page)).toHaveText('0');
});

async function secondDevice(browser: Browser, rider: Rider): Promise<Page> {
  const page = await pageOnAnotherDevice(browser);
  await logIn(page, rider);
  return page;
}

test('another browser logged in as the same rider sees the changes live', async ({ page, browser }) => {
  const rider = await signUp(page);
  await openCart(page);
  const device = await secondDevice(browser, rider);
  await addToCart(device, 'Albion SLK Saddle');
  await expect(cartTable(page).getByRole('row', { name: /Albion SLK Saddle/ })).toBeVisible();
  await expect(totalCell(page)).toHaveText('$4,990.00');

  await page.getByRole('button', { name: `Delete ${itemText('Albion SLK Saddle')}` }).click();
  await expect(deleteButtons(device)).toHaveCount(0);
  await device.context().close();
});

test('another rider does not see my cart', async ({ page, browser }) => {
  await signUp(page);
  await openCart(page);
  const stranger = await pageOnAnotherDevice(browser);
  await signUp(stranger);
  await addToCart(stranger, 'Fellmore Bridle');
  await addToCart(page, 'Anky Bridle');
  await expect(deleteButtons(page)).toHaveCount(1);
  await expect(deleteButtons(stranger)).toHaveCount(1);
  await expect(cartTable(page).getByText('Fellmore Bridle')).toHaveCount(0);
  await stranger.context().close();
});

test('after a dropped connection the cart reconnects and catches up with changes made meanwhile', async ({
  page,
  browser,
}) => {
  const rider = await signUp(page);
  // The first stream (its query names the cart the page came with) answers with the real cart, then ends: to the
  // browser, a dropped connection.
  let firstStream = true;
  await page.route('**/api/cart/stream*', async (route) => {
    if (!firstStream) return route.continue();
    firstStream = false;
    const { items } = await (await page.request.get('/api/cart')).json();
    await page.context().setOffline(true);
    await route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: `retry: 500\nevent: snapshot\ndata: ${JSON.stringify({ items })}\n\n`,
    });
  });
  await openCart(page);
  await expect(totalCell(page)).toHaveText('0');

  // While this browser is offline, its retries fail; meanwhile the rider adds from another device.
  const device = await secondDevice(browser, rider);
  await addToCart(device, 'Carlson Barn Jacket');
  await page.waitForTimeout(1500);
  await expect(deleteButtons(page)).toHaveCount(0);
  await page.context().setOffline(false);

  await expect(cartTable(page).getByRole('row', { name: /Carlson Barn Jacket/ })).toBeVisible({ timeout: 15_000 });
  await expect(totalCell(page)).toHaveText('$379.00');

  // And it is live again.
  await addToCart(device, 'Anky Bridle');
  await expect(cartTable(page).getByRole('row', { name: /Anky Bridle/ })).toBeVisible();
  await device.context().close();
});

test('when the stream cannot connect, the page retries and catches up', async ({ page, browser }) => {
  const rider = await signUp(page);
  let blocked = true;
  await page.route('**/api/cart/stream*', (route) => (blocked ? route.abort('connectionreset') : route.continue()));
  await page.goto('/cart');
  // The cart as the page's HTML had it, without the stream.
  await expect(page.getByText('Your cart is empty.')).toBeVisible();

  const device = await secondDevice(browser, rider);
  await addToCart(device, 'Ariat Westchester Boots');
  blocked = false;
  await expect(cartTable(page).getByRole('row', { name: /Ariat Westchester Boots/ })).toBeVisible({ timeout: 15_000 });
  await device.context().close();
});

test('logging out elsewhere sends the cart page to signup-login', async ({ page, context }) => {
  await signUp(page);
  await openCart(page);
  const other = await context.newPage();
  await other.goto('/home');
  await other.getByRole('button', { name: 'Log out' }).click();
  await expect(other).toHaveURL(/\/signup-login$/);
  await expect(page).toHaveURL(/\/signup-login$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});
