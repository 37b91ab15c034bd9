import {
  addToCart,
  checkoutForm,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  itemText,
  pageOnAnotherDevice,
  placeOrder,
  productCard,
  setStock,
  signUpConfirmed,
  test,
  withProductToMyself,
} from './support';

/** Sizes and stock in the browser (docs/product.md §12). No other test adds these boots, so these may sell them out. */
const boots = 'Carlson Tall Boots';
const addBoots = { name: `Add to cart: ${boots}` };

test('choosing a size: the select, its refusal without one, and the sizes sold out or nearly', async ({ page }) => {
  await withProductToMyself(boots, async () => {
    setStock(boots, 'all', 5);
    setStock(boots, '7', 0);
    setStock(boots, '8', 2);
    await signUpConfirmed(page);
    const card = productCard(page, boots);
    const size = card.getByLabel('Size');
    await expect(size).toHaveValue('');
    await expect(size.getByRole('option').first()).toHaveText('Choose a size');
    await card.getByRole('button', addBoots).click();
    await expect(card.getByRole('alert')).toHaveText('Please choose a size.');
    await expect(size).toBeFocused();
    await expect(page).toHaveURL(/\/home$/);

    // A sold-out size stays in the list: chosen, it offers an e-mail rather than the cart (docs/product.md §27); a size
    // nearly gone says how many are left.
    await size.selectOption('7 (sold out)');
    await expect(card.getByRole('button', addBoots)).toBeDisabled();
    await expect(card.getByRole('button', { name: 'Email me when it is back' })).toBeVisible();
    await size.selectOption('8');
    await expect(card.getByRole('button', { name: 'Email me when it is back' })).toHaveCount(0);
    await expect(card.getByRole('alert')).toHaveCount(0);
    await expect(card.getByText('Only 2 left', { exact: true })).toBeVisible();
    await card.getByRole('button', addBoots).click();
    await expect(page.getByRole('table', { name: 'Your cart' }).getByText(itemText(boots, '8'))).toBeVisible();
  });
});

test('a sale in another browser shows on every open home page at once, and a cancel gives it back', async ({
  page,
  browser,
}) => {
  await withProductToMyself(boots, async () => {
    setStock(boots, 'all', 0);
    setStock(boots, '6', 1);
    const watcher = await pageOnAnotherDevice(browser);
    await signUpConfirmed(watcher);
    const watched = productCard(watcher, boots);
    await watched.getByLabel('Size').selectOption('6');
    await expect(watched.getByText('Only 1 left', { exact: true })).toBeVisible();

    await signUpConfirmed(page);
    await addToCart(page, boots, '6');
    await placeOrder(page);

    // The watcher's page, never reloaded, follows the sale: nothing of the boots is left.
    await expect(watched.getByText('Sold out', { exact: true })).toBeVisible();
    await expect(watched.getByRole('button', addBoots)).toBeDisabled();
    await expect(watched.getByLabel('Size').getByRole('option', { name: '6 (sold out)' })).toHaveCount(1);
    await expect(watched.getByRole('button', { name: 'Email me when it is back' })).toBeVisible();
    await expectNoSevereAxeViolation(watcher);

    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
    await expect(watched.getByText('Only 1 left', { exact: true })).toBeVisible();
    await expect(watched.getByRole('button', addBoots)).toBeEnabled();
    await watcher.context().close();
  });
});

test("a home page loaded whole is told only of changes, and a dropped first connection comes back without the page's version", async ({
  page,
  browser,
}) => {
  await withProductToMyself(boots, async () => {
    setStock(boots, 'all', 0);
    setStock(boots, '7', 1);
    const watcher = await pageOnAnotherDevice(browser);
    await signUpConfirmed(watcher);
    // The page as a returning rider opens it: its HTML carries the products and their version (ADR 0028).
    const streams: string[] = [];
    watcher.on('request', (request) => {
      if (request.url().includes('/api/catalogue/stream')) streams.push(new URL(request.url()).search);
    });
    // The first connection, which names the version, breaks at once.
    let first = true;
    await watcher.route('**/api/catalogue/stream*', (route) => {
      if (!first) return route.continue();
      first = false;
      return route.abort('connectionreset');
    });
    await watcher.goto('/home');
    await expect.poll(() => streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[0]).toMatch(/^\?known=[\w-]+$/);
    // It may have missed changes: every later connection asks for everything.
    expect(streams.slice(1)).toEqual(streams.slice(1).map(() => ''));

    const watched = productCard(watcher, boots);
    await watched.getByLabel('Size').selectOption('7');
    await expect(watched.getByText('Only 1 left', { exact: true })).toBeVisible();
    await signUpConfirmed(page);
    await addToCart(page, boots, '7');
    await placeOrder(page);
    await expect(watched.getByText('Sold out', { exact: true })).toBeVisible();
    await watcher.context().close();
  });
});

test('a page showing old stock is told the size is sold out; checkout refuses a row sold out since', async ({
  page,
}) => {
  await withProductToMyself(boots, async () => {
    setStock(boots, 'all', 5);
    await signUpConfirmed(page);
    // This page hears nothing more of the stock: it keeps showing what it loaded.
    await page.route('**/api/catalogue/stream*', (route) => route.abort());
    await page.reload();
    const card = productCard(page, boots);
    // Shown: the page has its stock (the router shows it once its loader is done).
    await expect(card).toBeVisible();
    setStock(boots, '10', 0);
    await card.getByLabel('Size').selectOption('10');
    await card.getByRole('button', addBoots).click();
    await expect(card.getByRole('alert')).toHaveText('Sorry, that size is sold out.');
    await expect(page).toHaveURL(/\/home$/);

    await addToCart(page, boots, '11');
    await addToCart(page, 'Anky Bridle');
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillAddress(page);
    setStock(boots, '11', 0);
    await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('alert')).toHaveText(/sold out since you put them in your cart/);
    const soldOut = page.getByRole('row', { name: new RegExp(itemText(boots, '11')) });
    await expect(soldOut).toContainText('Sold out in this size.');
    await expect(checkoutForm(page).getByRole('button', { name: 'Place order' })).toBeDisabled();
    await expectNoSevereAxeViolation(page);

    await soldOut.getByRole('button', { name: `Remove ${itemText(boots, '11')}` }).click();
    await expect(soldOut).toHaveCount(0);
    await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
    await expect(page.getByRole('cell', { name: itemText('Anky Bridle') })).toBeVisible();
  });
});
