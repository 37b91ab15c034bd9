import type { Page } from '@playwright/test';
import {
  addToCart,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  settingsForm,
  signUpOwner,
  testOnFreshShop,
} from './support';

/**
 * The shop's tax in the browser (docs/product.md §19): the owner's rates, and a rider's checkout in a shop whose
 * prices exclude tax and in one whose prices include it. These tests change the settings, so each runs on a new shop.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

const row = (page: Page, name: string) =>
  page.getByRole('table', { name: /Your order|What was ordered/ }).getByRole('row', { name: new RegExp(`^${name}`) });

/** The signed-in owner saves the tax section (and Germany as a shipping zone), as the settings' API takes it. */
async function useTax(page: Page, tax: unknown): Promise<void> {
  const status = await page.evaluate(async (tax) => {
    const { settings } = await (await fetch('/api/admin/settings')).json();
    settings.shipping.zones.push({
      id: 'germany',
      name: 'Germany',
      places: [{ country: 'DE', regions: [] }],
      methods: [{ id: 'dhl', name: 'DHL', price: { kind: 'flat', cents: 2500 }, freeFromCents: null, estimate: '' }],
    });
    const reply = await fetch('/api/admin/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...settings, tax }),
    });
    return reply.status;
  }, tax);
  expect(status).toBe(200);
}

async function checkoutWithBlanket(page: Page): Promise<void> {
  await addToCart(page, 'Crochet Saddle Blanket');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
}

test("the owner adds, changes and removes a rate in 'Tax'", async ({ page, shop }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpOwner(page, shop);
  await page.goto('/admin/settings');
  const tax = settingsForm(page).getByRole('group', { name: 'Tax' });
  await expect(tax.getByRole('checkbox', { name: 'Prices include tax' })).toBeChecked();
  await expect(tax.getByText('No tax rates: the shop charges no tax of its own.')).toBeVisible();
  await tax.getByRole('checkbox', { name: 'Prices include tax' }).uncheck();
  await tax.getByRole('button', { name: 'Add a tax rate' }).click();
  const first = tax.getByRole('group', { name: 'Rate 1' });
  await first.getByLabel('Country', { exact: true }).selectOption('US');
  await first.getByLabel('State or region', { exact: true }).selectOption({ label: 'Florida' });
  await first.getByLabel('Rate (%)', { exact: true }).fill('7.0005');
  await first.getByLabel('Name', { exact: true }).fill('FL sales tax');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  const rate = first.getByLabel('Rate (%)', { exact: true });
  await expect(rate).toHaveAttribute('aria-invalid', 'true');
  await expect(first.getByRole('alert')).toHaveText('Rate (%) may have at most three decimals.');
  await rate.fill('7');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText('Saved. This is version 2 of the settings.');
  // The form is filled again from the settings as saved.
  await expect(tax.getByRole('checkbox', { name: 'Prices include tax' })).not.toBeChecked();
  await expect(first.getByLabel('State or region', { exact: true })).toHaveValue('US-FL');
  await rate.fill('7.5');
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText('Saved. This is version 3 of the settings.');
  await expect(page.getByText('Tax rate “FL sales tax” 7.5% for US US-FL added')).toBeVisible();
  await expectNoSevereAxeViolation(page);
  await tax.getByRole('button', { name: 'Remove rate 1' }).click();
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText('Saved. This is version 4 of the settings.');
  await expect(tax.getByText('No tax rates: the shop charges no tax of its own.')).toBeVisible();
});

test('prices without tax: the tax lines follow the address as the rider fills it', async ({ page, shop }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpOwner(page, shop);
  await page.goto('/home');
  await useTax(page, {
    pricesIncludeTax: false,
    taxShipping: true,
    rates: [{ name: 'FL sales tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 7000 }],
  });
  await checkoutWithBlanket(page);
  await fillAddress(page);
  await expect(row(page, 'FL sales tax')).toContainText('$22.68');
  await expect(row(page, 'Total')).toContainText('$346.68');
  await expect(page.getByText('Prices include any tax.')).toHaveCount(0);
  const state = checkoutForm(page).getByLabel('State or region', { exact: true });
  await state.selectOption({ label: 'New York' });
  await expect(row(page, 'Total')).toContainText('$324.00');
  await expect(row(page, 'FL sales tax')).toHaveCount(0);
  await state.selectOption({ label: 'Florida' });
  await expect(row(page, 'Total')).toContainText('$346.68');
  await expectNoSevereAxeViolation(page);
  await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(row(page, 'FL sales tax')).toContainText('$22.68');
  await expect(row(page, 'Total')).toContainText('$346.68');
});

test("'Collect at the yard' is taxed where the yard is, chosen after a Florida address or first, and places as quoted", async ({
  page,
  shop,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpOwner(page, shop);
  await page.goto('/home');
  await useTax(page, {
    pricesIncludeTax: false,
    taxShipping: true,
    rates: [{ name: 'FL sales tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 7000 }],
  });
  const form = checkoutForm(page);
  // A Florida address first, then collection: 7% of the goods alone, at the shop's yard in Wellington, Florida.
  await checkoutWithBlanket(page);
  await fillAddress(page);
  await expect(row(page, 'FL sales tax')).toContainText('$22.68');
  await form.getByLabel('Delivery').selectOption('Collect at the yard');
  await form.getByLabel('Phone', { exact: true }).fill('561 555 0100');
  await expect(row(page, 'FL sales tax')).toContainText('$20.93');
  await expect(row(page, 'Total')).toContainText('$319.93');
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(row(page, 'FL sales tax')).toContainText('$20.93');
  await expect(row(page, 'Total')).toContainText('$319.93');

  // Collection chosen before any address: the same tax.
  await checkoutWithBlanket(page);
  await form.getByLabel('Delivery').selectOption('Collect at the yard');
  await form.getByLabel('Full name', { exact: true }).fill('Ada Rider');
  await form.getByLabel('Phone', { exact: true }).fill('561 555 0100');
  await expect(row(page, 'FL sales tax')).toContainText('$20.93');
  await expect(row(page, 'Total')).toContainText('$319.93');
  await expectNoSevereAxeViolation(page);
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(row(page, 'Total')).toContainText('$319.93');
});

test('prices with tax: the total is unchanged and the page says the VAT it contains', async ({ page, shop }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpOwner(page, shop);
  await page.goto('/home');
  await useTax(page, {
    pricesIncludeTax: true,
    taxShipping: true,
    rates: [{ name: 'VAT', country: 'DE', region: null, postalPrefix: null, rate: 19000 }],
  });
  await checkoutWithBlanket(page);
  await fillAddress(page);
  await expect(row(page, 'Total')).toContainText('$324.00');
  await expect(page.getByText('Prices include any tax.')).toBeVisible();
  await checkoutForm(page).getByLabel('Country', { exact: true }).selectOption('DE');
  await expect(row(page, 'Includes VAT 19%')).toContainText('$51.73');
  await expect(row(page, 'Total')).toContainText('$324.00');
  await expect(page.getByText('Prices include any tax.')).toHaveCount(0);
  await expectNoSevereAxeViolation(page);
});
