import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { pdfText } from '../test/support/pdf-text';
import {
  addToCart,
  expect,
  expectNoSevereAxeViolation,
  itemText,
  makeOwner,
  pageOnAnotherDevice,
  placeOrder,
  signUpConfirmed,
  test,
} from './support';

/** An owner, signed in on a device of their own, with the header's 'Admin' (the role is read at load). */
async function ownerOnAnotherDevice(browser: Browser): Promise<Page> {
  const page = await pageOnAnotherDevice(browser);
  makeOwner(await signUpConfirmed(page));
  return page;
}

/** The owner marks the order paid and shipped, as for any order sent out. */
async function payAndShip(owner: Page, number: string): Promise<void> {
  await owner.goto(`/admin/orders/${number}`);
  await owner.getByRole('button', { name: 'Mark paid' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'marked paid' })).toBeVisible();
  await owner.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'marked shipped' })).toBeVisible();
}

/** The page as a phone shows it: nothing wider than 375 px, and no serious axe violation there either. */
async function expectFitsAPhone(page: Page): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);
  if (size) await page.setViewportSize(size);
}

/** The rider's 'Return items' form, with `item` chosen for `reason`; what it is asked for is the caller's. */
async function chooseLine(page: Page, item: string, reason: string): Promise<void> {
  await page.getByRole('checkbox', { name: `Return ${item}` }).check();
  await page
    .getByRole('group', { name: item })
    .getByRole('combobox', { name: 'Reason' })
    .selectOption({ label: reason });
}

/** Sends the rider's request and answers its number, as the order page says it. */
async function sendRequest(page: Page, number: string): Promise<string> {
  await page.getByRole('button', { name: 'Send the request' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order ${number}` })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /Your return RET-\d{4}-\d{5} has been requested/ });
  const returnNumber = /RET-\d{4}-\d{5}/.exec((await status.textContent()) ?? '')?.[0];
  if (!returnNumber) throw new Error('no return number on the order page');
  return returnNumber;
}

test('a rider returns one of two lines as too small; the owner receives and refunds it; the credit note holds that line alone', async ({
  page,
  browser,
}) => {
  const owner = await ownerOnAnotherDevice(browser);
  await signUpConfirmed(page);
  await addToCart(page, 'Anky Bridle');
  await addToCart(page, 'Carlson Barn Jacket');
  const number = await placeOrder(page);
  // Nothing to return before the order is shipped.
  await expect(page.getByRole('link', { name: 'Return items' })).toHaveCount(0);

  await payAndShip(owner, number);
  // The owner's list is open as the rider asks: the return appears there without a reload.
  await owner.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Returns' }).click();
  await expect(owner.getByRole('heading', { level: 1, name: 'Returns' })).toBeVisible();
  await expect(owner).toHaveTitle('Returns · Back office · Piaffe');

  await page.reload();
  await page.getByRole('link', { name: 'Return items' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Return items' })).toBeVisible();
  await chooseLine(page, itemText('Anky Bridle'), 'Too small');
  await expect(
    page.getByRole('group', { name: itemText('Anky Bridle') }).getByRole('radio', { name: 'Refund' }),
  ).toBeChecked();
  await expectFitsAPhone(page);
  const returnNumber = await sendRequest(page, number);

  const returns = page.getByRole('article', { name: `Return ${returnNumber}` });
  await expect(returns).toContainText('Requested');
  await expect(returns).toContainText(`${itemText('Anky Bridle')}: Too small, refund`);
  await expect(returns).toContainText('Send the parcel to:');
  // The other line may still be returned.
  await expect(page.getByRole('link', { name: 'Return items' })).toBeVisible();
  await expectFitsAPhone(page);

  const row = owner.getByRole('table', { name: 'Returns' }).getByRole('row', { name: new RegExp(returnNumber) });
  await expect(row).toContainText('Requested');
  await expect(row).toContainText(number);
  await row.getByRole('link', { name: returnNumber }).click();
  await expect(owner.getByRole('heading', { level: 1, name: `Return ${returnNumber}` })).toBeVisible();
  const lines = owner.getByRole('table', { name: 'Items' });
  await expect(lines.getByRole('row')).toHaveCount(2);
  await expect(lines).toContainText('Too small');

  await expect(
    owner.getByRole('group', { name: itemText('Anky Bridle') }).getByLabel('Damaged, do not restock'),
  ).not.toBeChecked();
  await owner.getByRole('button', { name: 'Mark received' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'marked received' })).toBeVisible();
  await expect(lines).toContainText('Restocked');
  const refund = owner.getByRole('form', { name: 'Refund' });
  await expect(refund).toContainText('Items to refund$302.99');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(owner.getByRole('status').filter({ hasText: '$302.99 is paid back' })).toBeVisible();
  await expect(owner.getByText('Paid back $302.99.')).toBeVisible();

  await expect(owner.getByRole('link', { name: /^Download CN-\d{4}-\d{5} \(PDF\)$/ })).toBeVisible();

  await owner.getByRole('link', { name: 'All returns' }).click();
  await owner.getByLabel('State').selectOption({ label: 'Refunded' });
  await owner.getByRole('button', { name: 'Show' }).click();
  await expect(owner).toHaveURL(/\/admin\/returns\?state=refunded$/);
  await expect(owner.getByRole('row', { name: new RegExp(returnNumber) })).toContainText('Refunded');

  await page.reload();
  await expect(page.getByText('Partly refunded: $302.99')).toBeVisible();
  await expect(returns).toContainText('Refunded $302.99.');
  // The rider's credit note: exactly the line that came back, naming the invoice, and nothing of the other line.
  const download = page.waitForEvent('download');
  await returns.getByRole('link', { name: 'Download credit note (PDF)' }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^CN-\d{4}-\d{5}\.pdf$/);
  const credit = await pdfText(readFileSync(await pdf.path()));
  expect(credit).toMatch(/INV-\d{4}-\d{5}/);
  expect(credit).toContain(`${itemText('Anky Bridle')} -$302.99`);
  expect(credit).not.toContain('Carlson Barn Jacket');
  expect(credit).not.toContain('$379.00');
});

test('a rider exchanges a blanket for another size; the owner sends the exchange as a new order', async ({
  page,
  browser,
}) => {
  const owner = await ownerOnAnotherDevice(browser);
  await signUpConfirmed(page);
  await addToCart(page, 'Crochet Saddle Blanket');
  const number = await placeOrder(page);
  await payAndShip(owner, number);

  await page.reload();
  await page.getByRole('link', { name: 'Return items' }).click();
  const item = itemText('Crochet Saddle Blanket');
  await chooseLine(page, item, 'Too large');
  const line = page.getByRole('group', { name: item });
  await line.getByRole('radio', { name: 'Exchange for another size' }).check();
  await line.getByRole('combobox', { name: 'Size' }).selectOption('Cob');
  await expectFitsAPhone(page);
  const returnNumber = await sendRequest(page, number);
  await expect(page.getByRole('article', { name: `Return ${returnNumber}` })).toContainText(
    `${item}: Too large, exchange for size Cob`,
  );
  // Its only line is asked back: nothing more to return.
  await expect(page.getByRole('link', { name: 'Return items' })).toHaveCount(0);

  await owner.goto(`/admin/returns/${returnNumber}`);
  await expect(owner.getByRole('table', { name: 'Items' })).toContainText('Exchange for size Cob');
  await owner.getByRole('button', { name: 'Mark received' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'marked received' })).toBeVisible();
  await expect(owner.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  await owner.getByRole('button', { name: 'Send the exchange' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'the exchange is sent as order' })).toBeVisible();
  await expect(owner.locator('.facts').first()).toContainText('Exchanged');
  await owner
    .getByRole('link', { name: /^PF-\d+$/ })
    .last()
    .click();
  await expect(owner.getByRole('heading', { level: 1, name: /^Order PF-\d+$/ })).toBeVisible();
  await expect(owner.getByRole('table', { name: 'What was ordered' })).toContainText(
    itemText('Crochet Saddle Blanket', 'Cob'),
  );

  await page.reload();
  const returned = page.getByRole('article', { name: `Return ${returnNumber}` });
  await expect(returned).toContainText('Exchanged');
  await returned.getByRole('link', { name: /^PF-\d+$/ }).click();
  await expect(page.getByRole('table', { name: 'What was ordered' })).toContainText(
    itemText('Crochet Saddle Blanket', 'Cob'),
  );
});

test('the owner refuses a return with a reason, which the rider reads on the order', async ({ page, browser }) => {
  const owner = await ownerOnAnotherDevice(browser);
  await signUpConfirmed(page);
  await addToCart(page, 'Fellmore Bridle');
  const number = await placeOrder(page);
  await payAndShip(owner, number);

  await page.goto(`/orders/${number}/return`);
  // Nothing chosen: the server says so, and the form stays.
  await page.getByRole('button', { name: 'Send the request' }).click();
  await expect(page.getByRole('alert')).toHaveText('Choose at least one item to return.');
  await chooseLine(page, itemText('Fellmore Bridle'), 'Changed my mind');
  const returnNumber = await sendRequest(page, number);

  // The owner's pages on a phone, as the return waits in the list.
  await owner.goto('/admin/returns?state=requested');
  const row = owner.getByRole('table', { name: 'Returns' }).getByRole('row', { name: new RegExp(returnNumber) });
  await expect(row).toContainText('Requested');
  await expectFitsAPhone(owner);
  await row.getByRole('link', { name: returnNumber }).click();
  await expect(owner.getByRole('heading', { level: 1, name: `Return ${returnNumber}` })).toBeVisible();
  await expectFitsAPhone(owner);
  // The reason is required: the browser keeps the form until one is given.
  await owner.getByRole('button', { name: 'Refuse the return' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'is refused' })).toHaveCount(0);
  await owner.getByLabel('Reason, told to the rider').fill('Worn in the arena: not as sent.');
  await owner.getByRole('button', { name: 'Refuse the return' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'is refused' })).toBeVisible();
  await expect(owner.getByRole('button', { name: 'Mark received' })).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('article', { name: `Return ${returnNumber}` })).toContainText(
    'Refused: Worn in the arena: not as sent.',
  );
});
