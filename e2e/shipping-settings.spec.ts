import type { Locator, Page } from '@playwright/test';
import {
  addToCart,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  pageOnAnotherDevice,
  settingsForm,
  signUpConfirmed,
  signUpOwner,
  testOnFreshShop,
} from './support';

/**
 * The owner's shipping zones in the browser (docs/product.md §18): made, changed, reordered and removed on the settings
 * page, and what a rider's checkout then offers. Each test runs on a new shop of its own.
 */
const test = testOnFreshShop;
test.describe.configure({ mode: 'parallel' });

const group = (within: Page | Locator, name: string) => within.getByRole('group', { name, exact: true });
const field = (within: Locator, label: string) => within.getByLabel(label, { exact: true });

test("the owner adds a zone for Canada with 'Express' by weight, and a rider in Canada is offered it", async ({
  page,
  browser,
  shop,
}) => {
  // The owner's whole form and a rider's checkout: three times the usual time on a busy machine.
  test.slow();
  await signUpOwner(page, shop);
  await page.goto('/admin/settings');
  const form = settingsForm(page);
  await expect(field(group(page, 'Zone 1'), 'Zone name')).toHaveValue('United States');

  await form.getByRole('button', { name: 'Add a zone' }).click();
  const zone = group(page, 'Zone 2');
  await expect(field(zone, 'Zone name')).toBeFocused();
  await field(zone, 'Zone name').fill('Canada');
  await field(zone, 'Country to add to zone 2').selectOption('Canada');
  await zone.getByRole('button', { name: 'Add country' }).click();
  await expect(group(page, 'Countries of zone 2')).toContainText('Canada: all of it');

  const express = group(page, 'Zone 2, method 1');
  await field(express, 'Method name').fill('Express');
  await field(express, 'Pricing').selectOption('By weight');
  await field(group(express, 'Band 1'), 'Up to (grams)').fill('2000');
  await field(group(express, 'Band 1'), 'Price').fill('30.00');
  await express.getByRole('button', { name: 'Add a band' }).click();
  // A band that does not go above the one before is refused beside its field.
  await field(group(express, 'Band 2'), 'Up to (grams)').fill('1500');
  await field(group(express, 'Band 2'), 'Price').fill('45.00');
  const second = field(group(express, 'Band 2'), 'Up to (grams)');
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(second).toHaveAccessibleDescription('The bands overlap: this one must go above 2000 g.');
  await expect(group(express, 'Band 2').getByRole('alert')).toHaveText(
    'The bands overlap: this one must go above 2000 g.',
  );
  await second.fill('5000');
  await expect(second).not.toHaveAttribute('aria-invalid', 'true');
  await field(express, 'Delivery estimate').fill('2 to 4 working days');

  // A second method, moved above the first; a third zone, added by mistake and removed; Canada moved first.
  await zone.getByRole('button', { name: 'Add a method to zone 2' }).click();
  const standard = group(page, 'Zone 2, method 2');
  await field(standard, 'Method name').fill('Standard');
  await field(standard, 'Price').fill('20');
  await field(standard, 'Delivery estimate').fill('5 to 8 working days');
  await standard.getByRole('button', { name: 'Move up zone 2, method 2' }).click();
  await expect(field(group(page, 'Zone 2, method 1'), 'Method name')).toHaveValue('Standard');
  await expect(field(group(page, 'Zone 2, method 2'), 'Method name')).toHaveValue('Express');
  await form.getByRole('button', { name: 'Add a zone' }).click();
  await field(group(page, 'Zone 3'), 'Zone name').fill('Mistake');
  await group(page, 'Zone 3').getByRole('button', { name: 'Remove zone' }).click();
  await expect(group(page, 'Zone 3')).toHaveCount(0);
  await zone.getByRole('button', { name: 'Move up zone 2', exact: true }).click();
  await expect(field(group(page, 'Zone 1'), 'Zone name')).toHaveValue('Canada');
  // At the top it can only go down: that button takes the focus.
  await expect(page.getByRole('button', { name: 'Move down zone 1', exact: true })).toBeFocused();
  await expect(field(group(page, 'Zone 2'), 'Zone name')).toHaveValue('United States');

  await expectNoSevereAxeViolation(page);
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved. This is version 2 of the settings.');
  await page.reload();
  await expect(field(group(page, 'Zone 1, method 2'), 'Method name')).toHaveValue('Express');
  await expect(field(group(group(page, 'Zone 1, method 2'), 'Band 2'), 'Price')).toHaveValue('45.00');

  // A rider in Canada: the boots weigh 2.3 kg, in Express's second band.
  const rider = await pageOnAnotherDevice(browser, shop.baseURL);
  await rider.setViewportSize({ width: 375, height: 800 });
  await signUpConfirmed(rider);
  await addToCart(rider, 'Ariat Westchester Boots');
  await rider.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(rider);
  await checkoutForm(rider).getByLabel('Country').selectOption('Canada');
  await checkoutForm(rider).getByLabel('State or region').selectOption('Ontario');
  const methods = checkoutForm(rider).getByRole('group', { name: 'Delivery method' });
  await expect(methods.getByRole('radio', { name: 'Standard' })).toHaveAccessibleDescription(
    '$20.00 · 5 to 8 working days',
  );
  await expect(methods.getByRole('radio', { name: 'Express' })).toHaveAccessibleDescription(
    '$45.00 · 2 to 4 working days',
  );
  await expectNoSevereAxeViolation(rider);
});
