import type { Page } from '@playwright/test';
import type { FreshShop } from './shops';
import {
  addToCart,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  makeOwnerOf,
  signUpConfirmed,
  testOnFreshShop,
} from './support';

/**
 * A rider's checkout with the shop's shipping zones (docs/product.md §18). These tests change the shop's settings, so
 * each runs on a new shop of its own.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

const row = (page: Page, name: string) =>
  page.getByRole('table', { name: /Your order|What was ordered/ }).getByRole('row', { name: new RegExp(`^${name}`) });

/** The signed-in owner adds 'Express' to the United States zone, as the settings' API takes it from the owner's page. */
async function addExpress(page: Page): Promise<void> {
  const status = await page.evaluate(async () => {
    const { settings } = await (await fetch('/api/admin/settings')).json();
    const [zone] = settings.shipping.zones;
    zone.methods.push({
      id: 'express',
      name: 'Express',
      price: { kind: 'flat', cents: 4000 },
      freeFromCents: null,
      estimate: '1 to 2 working days',
    });
    const reply = await fetch('/api/admin/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(settings),
    });
    return reply.status;
  });
  expect(status).toBe(200);
}

async function riderAtCheckout(page: Page, shop: FreshShop, { express = true } = {}): Promise<void> {
  const rider = await signUpConfirmed(page);
  if (express) {
    makeOwnerOf(shop.databaseUrl, rider);
    await page.goto('/home');
    await addExpress(page);
  }
  await addToCart(page, 'Ariat Westchester Boots');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
}

test('a rider chooses between two delivery methods, and the totals and the order follow', async ({ page, shop }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await riderAtCheckout(page, shop);
  await fillAddress(page);
  const methods = checkoutForm(page).getByRole('group', { name: 'Delivery method' });
  await expect(methods.getByRole('radio', { name: 'Standard' })).toBeChecked();
  await expect(methods.getByRole('radio', { name: 'Express' })).toHaveAccessibleDescription(
    '$40.00 · 1 to 2 working days',
  );
  await expect(row(page, 'Shipping')).toContainText('$25.00');
  // The choice is the server's quote's: the radio follows once the new quote is in.
  await methods.getByRole('radio', { name: 'Express' }).click();
  await expect(methods.getByRole('radio', { name: 'Express' })).toBeChecked();
  await expect(row(page, 'Shipping')).toContainText('$40.00');
  await expect(row(page, 'Total')).toContainText('$539.99');
  await expectNoSevereAxeViolation(page);
  await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByText('Express, 1 to 2 working days')).toBeVisible();
  await expect(row(page, 'Total')).toContainText('$539.99');
});

test('an address outside every zone is told so and cannot be ordered', async ({ page, shop }) => {
  await riderAtCheckout(page, shop, { express: false });
  await fillAddress(page);
  const form = checkoutForm(page);
  await expect(form.getByRole('button', { name: 'Place order' })).toBeEnabled();
  await form.getByLabel('Country').selectOption('Canada');
  await expect(form.getByText('We do not ship to Canada yet.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Place order' })).toBeDisabled();
  await expectNoSevereAxeViolation(page);
  await form.getByLabel('Country').selectOption('United States');
  // Canada's provinces are not the United States' states: the state is chosen again.
  await expect(form.getByLabel('State or region')).toHaveValue('');
  await form.getByLabel('State or region').selectOption('Florida');
  await expect(form.getByRole('group', { name: 'Delivery method' })).toContainText('Standard: $25.00');
  await expect(form.getByRole('button', { name: 'Place order' })).toBeEnabled();
});
