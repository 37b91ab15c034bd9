import {
  addToCart,
  cartTable,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  pageOnAnotherDevice,
  placeOrder,
  signUpConfirmed,
  test,
  totalCell,
} from './support';

const summary = (page: import('@playwright/test').Page) =>
  page.getByRole('table', { name: /Your order|What was ordered/ });
const row = (page: import('@playwright/test').Page, name: string) =>
  summary(page).getByRole('row', { name: new RegExp(`^${name}`) });

test('a rider checks out the cart, pays by bank transfer and sees the order', async ({ page }) => {
  await signUpConfirmed(page);
  await page.goto('/cart');
  await expect(page.getByRole('link', { name: 'Checkout' })).toHaveCount(0);
  await addToCart(page, 'Ariat Westchester Boots');
  await page.getByRole('link', { name: 'Checkout' }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page).toHaveTitle('Checkout · Piaffe');
  await expect(row(page, 'Ariat Westchester Boots')).toContainText('$499.99');
  await expect(row(page, 'Subtotal')).toContainText('$499.99');
  await expect(row(page, 'Shipping')).toContainText('$25.00');
  await expect(row(page, 'Total')).toContainText('$524.99');
  await expect(page.getByText('Prices include any tax.')).toBeVisible();

  const form = checkoutForm(page);
  const place = form.getByRole('button', { name: 'Place order' });
  await expect(place).toBeDisabled();
  await expect(form.getByLabel('Country')).toHaveValue('US');
  await form.getByLabel('Full name').fill('   ');
  await form.getByLabel('City').focus();
  // Said aloud as it appears, as every field error is.
  await expect(form.getByRole('alert')).toHaveText('Full name is required.');
  await expect(form.getByLabel('Full name')).toHaveAccessibleDescription('Full name is required.');
  await fillAddress(page);
  await form.getByLabel('Phone (optional)').fill('(561) 555-0199');
  await expect(form.getByRole('radio', { name: 'Bank transfer' })).toBeChecked();
  await expect(place).toBeEnabled();
  await place.click();

  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  const number = /\/orders\/(PF-\d+)$/.exec(page.url())?.[1] ?? '';
  expect(number).toMatch(/^PF-\d{5,}$/);
  await expect(page.getByRole('status')).toContainText(`Your order ${number} has been placed.`);
  await expect(row(page, 'Ariat Westchester Boots')).toContainText('$499.99');
  await expect(row(page, 'Total')).toContainText('$524.99');
  await expect(page.getByText('Wellington, Florida 33414', { exact: true })).toBeVisible();
  await expect(page.getByText('Phone: (561) 555-0199')).toBeVisible();
  const facts = page.locator('.facts').first();
  await expect(facts).toContainText('Placed');
  await expect(facts).toContainText('Bank transfer');
  const howToPay = page.getByRole('heading', { name: 'How to pay' }).locator('..');
  await expect(howToPay).toContainText('within 7 days');
  await expect(howToPay).toContainText(`Reference${number}`);
  await expect(howToPay).toContainText('Wellington Community Bank');

  // The cart is empty now; the order is in the rider's list, reachable from the account page.
  await page.goto('/cart');
  await expect(totalCell(page)).toHaveText('0');
  await page.goto('/manage-account');
  await page.getByRole('link', { name: 'Your orders' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  const list = page.getByRole('table', { name: 'Your orders' });
  await expect(list.getByRole('row', { name: new RegExp(number) })).toContainText('$524.99');
  await list.getByRole('link', { name: number }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order ${number}` })).toBeVisible();
});

test('pay on collection shows the yard, and free shipping from $500', async ({ page }) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Anky Bridle');
  await addToCart(page, 'Crochet Saddle Blanket');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(row(page, 'Shipping')).toContainText('Free');
  await checkoutForm(page).getByLabel('Delivery').selectOption('Collect at the yard');
  await checkoutForm(page).getByLabel('Full name').fill('Ada Rider');
  await checkoutForm(page).getByLabel('Phone', { exact: true }).fill('(561) 555-0199');
  await checkoutForm(page).getByRole('radio', { name: 'Pay on collection' }).check();
  await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
  const howToPay = page.getByRole('heading', { name: 'How to pay' }).locator('..');
  await expect(howToPay).toContainText('Collect your order at our yard and pay $601.99 there.');
  await expect(howToPay).toContainText('12 Arena Lane, Wellington, FL 33414');
});

test('collecting at the yard asks a name and a phone, costs no shipping; Pay on collection comes with it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpConfirmed(page);
  await addToCart(page, 'Ariat Westchester Boots');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(row(page, 'Shipping')).toContainText('$25.00');
  const form = checkoutForm(page);
  await form.getByLabel('Delivery').selectOption('Collect at the yard');
  await expect(row(page, 'Shipping')).toContainText('Free');
  await expect(row(page, 'Total')).toContainText('$499.99');
  // Pay on collection goes with collecting only: shipping does not offer it.
  await expect(form.getByRole('radio', { name: 'Pay on collection' })).toBeVisible();
  await form.getByLabel('Delivery').selectOption('Ship to my address');
  await expect(row(page, 'Total')).toContainText('$524.99');
  await expect(form.getByRole('radio', { name: 'Pay on collection' })).toHaveCount(0);
  await form.getByLabel('Delivery').selectOption('Collect at the yard');
  await expect(row(page, 'Total')).toContainText('$499.99');
  // A name and a phone, no address.
  const who = form.getByRole('group', { name: 'Who collects' });
  await expect(who.getByRole('textbox')).toHaveCount(2);
  await expect(form.getByLabel('Address line 1')).toHaveCount(0);
  await form.getByLabel('Full name').fill('Ada Rider');
  await form.getByLabel('Phone', { exact: true }).fill(' ');
  await form.getByLabel('Phone', { exact: true }).blur();
  await expect(form.getByLabel('Phone', { exact: true })).toHaveAccessibleDescription(
    'Phone is required to collect at the yard: the shop calls when the order is ready.',
  );
  await expect(form.getByRole('button', { name: 'Place order' })).toBeDisabled();
  await form.getByLabel('Phone', { exact: true }).fill('(561) 555-0199');
  await form.getByRole('radio', { name: 'Bank transfer' }).check();
  await expectNoSevereAxeViolation(page);
  await form.getByRole('button', { name: 'Place order' }).click();
  const facts = page.locator('.facts').first();
  await expect(facts).toContainText('Collect at the yard');
  await expect(facts).toContainText('Bank transfer');
  await expect(row(page, 'Total')).toContainText('$499.99');
});

test('every other open cart page of the rider shows the empty cart at once', async ({ page, context }) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Fellmore Bridle');
  const other = await context.newPage();
  await other.goto('/cart');
  await expect(cartTable(other).getByRole('row', { name: /Fellmore Bridle/ })).toBeVisible();
  await placeOrder(page);
  await expect(totalCell(other)).toHaveText('0');
  await expect(other.getByRole('link', { name: 'Checkout' })).toHaveCount(0);
});

test('a cart changed in another tab is refused with a message and the fresh cart; nothing is ordered', async ({
  page,
  context,
}) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Anky Bridle');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(page);
  const other = await context.newPage();
  await addToCart(other, 'Albion SLK Saddle');

  await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Your cart has changed since this page showed it. Please check your order and place it again.',
  );
  await expect(row(page, 'Albion SLK Saddle')).toBeVisible();
  // Still on checkout (its query says what the quote is for: the delivery, the address's country and region).
  await expect(page).toHaveURL(/\/checkout(\?.*)?$/);
  await page.goto('/orders');
  await expect(page.getByText('You have not placed any orders yet.')).toBeVisible();
});

test('a double click on Place order makes one order', async ({ page }) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Dakota Barn Jacket');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(page);
  await checkoutForm(page).getByRole('button', { name: 'Place order' }).dblclick();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await page.goto('/orders');
  await expect(page.getByRole('table', { name: 'Your orders' }).getByRole('link')).toHaveCount(1);
});

test('the rider cancels an order while it is placed', async ({ page }) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Dakota Barn Jacket');
  const number = await placeOrder(page);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Keep the order' }).click();
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'cancelled' })).toHaveText(
    `Your order ${number} has been cancelled.`,
  );
  await expect(page.locator('.facts').first()).toContainText('Cancelled');
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'How to pay' })).toHaveCount(0);
});

test("another rider's order number shows the Snap! page", async ({ page, browser }) => {
  await signUpConfirmed(page);
  await addToCart(page, 'Anky Bridle');
  const number = await placeOrder(page);
  const stranger = await pageOnAnotherDevice(browser);
  await signUpConfirmed(stranger);
  await stranger.goto(`/orders/${number}`);
  await expect(stranger.getByRole('heading', { name: 'Snap!' })).toBeVisible();
  await stranger.context().close();
});

test('a visitor who opens checkout or orders lands on signup-login', async ({ page }) => {
  for (const path of ['/checkout', '/orders', '/orders/PF-10001']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/signup-login$/);
  }
});
