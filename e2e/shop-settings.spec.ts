import type { Locator, Page } from '@playwright/test';
import {
  addToCart,
  expect,
  expectNoSevereAxeViolation,
  pageOnAnotherDevice,
  placeOrder,
  settingsForm,
  signUpConfirmed,
  signUpOwner,
  testOnFreshShop,
} from './support';

/**
 * The shop's settings in the browser (docs/product.md §17). These tests change what every shop starts with, so each
 * runs on a new shop of its own (`testOnFreshShop`).
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

const field = (page: Page, label: string) => settingsForm(page).getByLabel(label, { exact: true });

async function openSettings(page: Page): Promise<void> {
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

async function save(page: Page, version: number): Promise<void> {
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText(`Saved. This is version ${version} of the settings.`);
}

/** The field shows the problem next to it: marked invalid, and the message tied to it. */
async function expectProblem(control: Locator, message: string): Promise<void> {
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  await expect(control).toHaveAccessibleDescription(new RegExp(message.replace(/[.$()+/]/g, '\\$&')));
}

test("'Settings' in the back office shows a new shop's values; a save is kept in the history", async ({
  page,
  shop,
}) => {
  const owner = await signUpOwner(page, shop);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page).toHaveTitle('Settings · Back office · Piaffe');
  await expect(field(page, 'Name as shown')).toHaveValue('Piaffe');
  await expect(field(page, 'Address line 1')).toHaveValue('12 Arena Lane');
  await expect(field(page, 'City')).toHaveValue('Wellington');
  await expect(field(page, 'State or region')).toHaveValue('US-FL');
  await expect(field(page, 'State or region').locator('option:checked')).toHaveText('Florida');
  await expect(field(page, 'Postal code')).toHaveValue('33414');
  await expect(field(page, 'Country')).toHaveValue('US');
  await expect(field(page, 'Phone')).toHaveValue('(561) 555-0142');
  await expect(field(page, 'Account number')).toHaveValue('0000 1234 5678');
  await expect(field(page, 'Days to pay')).toHaveValue('7');
  const cancelUnpaid = settingsForm(page)
    .getByRole('group', { name: 'Bank account for transfers' })
    .getByRole('checkbox', { name: 'Cancel unpaid orders' });
  await expect(cancelUnpaid).toBeChecked();
  await expect(cancelUnpaid).toHaveAccessibleDescription(/gets one reminder by e-mail/);
  const methods = settingsForm(page).getByRole('group', { name: 'Payment methods offered' });
  await expect(methods.getByRole('checkbox', { name: 'Bank transfer' })).toBeChecked();
  await expect(methods.getByRole('checkbox', { name: 'Pay on collection' })).toBeChecked();
  await expect(page.getByText('No changes yet: the settings are as the shop first had them.')).toBeVisible();
  await expectNoSevereAxeViolation(page);
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Bad input stays in the form, with its problem next to its field; nothing is saved.
  await field(page, 'Name as shown').fill(' ');
  await field(page, 'Phone').fill('call us');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expectProblem(field(page, 'Name as shown'), 'Name is required.');
  await expectProblem(field(page, 'Phone'), 'Phone may have only digits, spaces and + ( ) - . /');
  await expect(field(page, 'Name as shown')).toBeFocused();
  await methods.getByRole('checkbox', { name: 'Bank transfer' }).uncheck();
  await methods.getByRole('checkbox', { name: 'Pay on collection' }).uncheck();
  await methods.getByRole('checkbox', { name: 'Card' }).uncheck();
  await expect(methods).toHaveAccessibleDescription(/Offer at least one payment method\./);
  await expectNoSevereAxeViolation(page);

  await field(page, 'Name as shown').fill('Piaffe Wellington');
  await field(page, 'Phone').fill('(561) 555-0199');
  await methods.getByRole('checkbox', { name: 'Bank transfer' }).check();
  await cancelUnpaid.uncheck();
  await save(page, 2);
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row').nth(1)).toContainText(owner.email);
  await expect(history.getByRole('row').nth(1)).toContainText('Phone “(561) 555-0142” → “(561) 555-0199”');
  await expect(history.getByRole('row').nth(1)).toContainText(
    'Payment methods “bank-transfer, collection, card” → “bank-transfer”',
  );
  await expect(history.getByRole('row').nth(1)).toContainText('Unpaid orders no longer cancelled after a reminder');
  await expect(page).toHaveTitle('Settings · Back office · Piaffe Wellington');
  await page.reload();
  await expect(field(page, 'Phone')).toHaveValue('(561) 555-0199');
  await expect(cancelUnpaid).not.toBeChecked();
});

test('a save from a stale form is refused and keeps what the owner typed', async ({ page, browser, shop }) => {
  await signUpOwner(page, shop);
  await openSettings(page);
  const other = await pageOnAnotherDevice(browser, shop.baseURL);
  await signUpOwner(other, shop);
  await openSettings(other);
  await field(other, 'Tax id (optional)').fill('US-59-0000001');
  await save(other, 2);

  await field(page, 'Address line 1').fill('3 Paddock Road');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('alert')).toContainText('Someone else has just changed the settings.');
  await expect(field(page, 'Address line 1')).toHaveValue('3 Paddock Road');
  await settingsForm(page).getByRole('button', { name: 'Reload the settings' }).click();
  await expect(field(page, 'Tax id (optional)')).toHaveValue('US-59-0000001');
  await expect(field(page, 'Address line 1')).toHaveValue('12 Arena Lane');
});

test("the footer of every open page follows the owner's save", async ({ page, browser, shop }) => {
  await signUpOwner(page, shop);
  const rider = await pageOnAnotherDevice(browser, shop.baseURL);
  await signUpConfirmed(rider);
  // One page with a stream of its own (the home page), one that follows the account stream (the rider's orders).
  await rider.goto('/home');
  const orders = await rider.context().newPage();
  await orders.goto('/orders');
  for (const open of [rider, orders]) {
    await expect(open.getByRole('contentinfo').getByText('(561) 555-0142')).toBeVisible();
  }

  await openSettings(page);
  await field(page, 'Phone').fill('(561) 555-0111');
  await field(page, 'Address line 1').fill('3 Paddock Road');
  await field(page, 'City').fill('Ocala');
  await field(page, 'Postal code').fill('34482');
  await save(page, 2);
  for (const open of [rider, orders]) {
    const footer = open.getByRole('contentinfo');
    await expect(footer.getByText('(561) 555-0111')).toBeVisible();
    await expect(footer.getByText('3 Paddock Road, Ocala, FL 34482')).toBeVisible();
  }
});

test("'Money and time': the owner's currency and locale reach every page; an order placed before keeps its own", async ({
  page,
  shop,
}) => {
  await signUpOwner(page, shop);
  await page.goto('/home');
  // An order in US dollars, before the change.
  await addToCart(page, 'Anky Bridle');
  const before = await placeOrder(page);
  await openSettings(page);
  await expect(field(page, 'Currency')).toHaveValue('USD');
  await expect(field(page, 'Language and region')).toHaveValue('en-US');
  await expect(field(page, 'Time zone')).toHaveValue('America/New_York');
  await field(page, 'Language and region').fill('english');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expectProblem(field(page, 'Language and region'), 'Language and region must be a tag such as en-US or de-DE.');
  await field(page, 'Currency').selectOption('EUR');
  await field(page, 'Language and region').fill('de-DE');
  await field(page, 'Time zone').selectOption('Europe/Berlin');
  await save(page, 2);
  await expect(page.getByRole('table', { name: 'History' }).getByRole('row').nth(1)).toContainText(
    'Currency “USD” → “EUR”',
  );
  await expectNoSevereAxeViolation(page);
  // The catalogue's prices are euros now, written as German writes them; the order placed before is in dollars.
  await page.goto('/home');
  await expect(page.getByText('302,99 €').first()).toBeVisible();
  await page.goto(`/orders/${before}`);
  const summary = page.getByRole('table', { name: 'What was ordered' });
  await expect(summary.getByRole('row', { name: /^Total/ })).toContainText('$');
  await expect(summary.getByRole('row', { name: /^Total/ })).not.toContainText('€');
});
