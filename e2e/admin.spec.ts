import { readFileSync } from 'node:fs';
import { limits } from '../src/shared/limits';
import {
  addToCart,
  expect,
  mailTo,
  makeOwner,
  pageOnAnotherDevice,
  placeOrder,
  signUpConfirmed,
  signUpOwner,
  test,
  testOnFreshShop,
} from './support';

test('an owner sees a new order appear live, marks it paid and shipped; the rider sees it and gets the e-mails', async ({
  page,
  browser,
}) => {
  const owner = await signUpConfirmed(page);
  makeOwner(owner);
  // The header learns the role from the server.
  await page.reload();
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(page).toHaveTitle('Orders · Back office · Piaffe');

  const riderPage = await pageOnAnotherDevice(browser);
  const rider = await signUpConfirmed(riderPage);
  await addToCart(riderPage, 'Anky Bridle');
  const number = await placeOrder(riderPage);

  // No reload: the list hears of the order.
  const list = page.getByRole('table', { name: 'Orders' });
  const row = list.getByRole('row', { name: new RegExp(number) });
  await expect(row).toContainText(rider.email);
  await expect(row).toContainText('Placed');
  await row.getByRole('link', { name: number }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page.getByText(`Placed by ${rider.email}.`)).toBeVisible();
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history).toContainText(`Rider ${rider.email}`);
  await expect(page.getByRole('button', { name: 'Mark shipped' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();
  await page.getByLabel(/Note for the rider/).fill('Tracking 1Z999AA10123456784');
  await page.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'marked shipped' })).toBeVisible();
  await expect(history.getByRole('row')).toHaveCount(4);
  await expect(history).toContainText(`Owner ${owner.email}`);
  await expect(history).toContainText('Tracking 1Z999AA10123456784');
  await expect(page.getByRole('heading', { name: 'Move this order' })).toHaveCount(0);

  await riderPage.reload();
  await expect(riderPage.locator('.facts').first()).toContainText('Shipped');
  await expect(riderPage.getByText('Tracking 1Z999AA10123456784')).toBeVisible();
  await mailTo(rider.email, `We have your payment for order ${number}`);
  const shipped = await mailTo(rider.email, `Your order ${number} is on its way`);
  expect(shipped.text).toContain('Tracking 1Z999AA10123456784');

  // The outbox shows what went out.
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Outbox' })).toContainText(`Your order ${number} is on its way`);
  await riderPage.context().close();
});

test('an owner filters the orders and downloads them as CSV', async ({ page }) => {
  const owner = await signUpConfirmed(page);
  makeOwner(owner);
  await addToCart(page, 'Dakota Barn Jacket');
  const number = await placeOrder(page);
  await page.goto('/admin');
  await page.getByLabel('Order number or e-mail').fill(number);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${number}`));
  await expect(page.getByRole('table', { name: 'Orders' }).getByRole('link')).toHaveText([number]);
  await page.getByLabel('Status').selectOption('shipped');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('status')).toContainText('0 orders');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8');
  expect(csv).toContain(`"${number}"`);
  expect(csv).toContain('"Dakota Barn Jacket","M",379.00,"",,25.00,404.00,"Placed"');
});

testOnFreshShop.describe('a shop with a page of orders and ten more', () => {
  // Placed over two years by the demo data's riders.
  testOnFreshShop.use({ demoData: { products: 8, riders: 5, orders: limits.pageSize + 10 } });

  testOnFreshShop('an owner pages to the older orders and back to the newest', async ({ page, shop }) => {
    await signUpOwner(page, shop);
    await page.goto('/admin');
    await expect(page.getByRole('status')).toContainText(`${limits.pageSize + 10} orders`);
    const numbers = page.getByRole('table', { name: 'Orders' }).getByRole('row').getByRole('link');
    await expect(numbers).toHaveCount(limits.pageSize);
    const newest = await numbers.first().textContent();
    await expect(page.getByRole('link', { name: 'Newer orders' })).toHaveCount(0);

    await page.getByRole('link', { name: 'Older orders' }).click();
    await expect(page).toHaveURL(/before=/);
    await expect(numbers).toHaveCount(10);
    await expect(page.getByRole('link', { name: 'Older orders' })).toHaveCount(0);

    await page.getByRole('link', { name: 'Newer orders' }).click();
    await expect(numbers).toHaveCount(limits.pageSize);
    await expect(numbers.first()).toHaveText(newest ?? '');
  });
});

test('a rider who opens the back office sees the Snap! page; a visitor is sent to log in', async ({
  page,
  browser,
}) => {
  await signUpConfirmed(page);
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  for (const path of ['/admin', '/admin/outbox', '/admin/orders/PF-10001']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Snap!' })).toBeVisible();
  }
  const visitor = await pageOnAnotherDevice(browser);
  await visitor.goto('/admin');
  await expect(visitor).toHaveURL(/\/signup-login$/);
  await visitor.context().close();
});
