import { firstCatalogue as catalogue } from '../src/server/db/migrations/0009-owners-catalogue';
import { expect, itemText, productCard, signUp, test } from './support';

test('the header shows the brand, the tagline and the banner', async ({ page }) => {
  await signUp(page);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Piaffe', exact: true })).toBeVisible();
  await expect(header.getByText('A Dressage Shop for Horse and Rider')).toBeVisible();
  for (const word of ['Compete', 'Train', 'Work']) {
    await expect(page.getByText(word, { exact: true })).toBeVisible();
  }
  await expect(page).toHaveTitle(/Piaffe/);
});

test('home lists the eight products with number, price, description, thumbnail and links', async ({ page }) => {
  await signUp(page);
  expect(catalogue).toHaveLength(8);
  await expect(page.getByRole('button', { name: /^Add to cart: / })).toHaveCount(8);
  const expectedPrices = ['$302.99', '$4,990.00', '$499.99', '$379.00', '$398.99', '$299.00', '$379.00', '$344.49'];
  for (const [index, product] of catalogue.entries()) {
    const card = page.getByRole('article', { name: product.name });
    await expect(card.getByText(`Item no. ${product.itemid}`)).toBeVisible();
    await expect(card.getByText(expectedPrices[index] ?? '', { exact: true })).toBeVisible();
    await expect(card.getByText(product.details)).toBeVisible();

    const thumbnail = card.getByRole('img', { name: product.name });
    await expect(thumbnail).toHaveAttribute('src', product.pic);
    await expect(thumbnail).toHaveAttribute('width', '160');
    await expect(thumbnail).toHaveAttribute('height', '160');
    // Loaded and decoded: waited for, since a picture may still be on its way when the card is already shown.
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    const links = card.getByRole('link', { name: product.name });
    await expect(links).toHaveCount(2);
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute('href', product.largepic);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /\bnoopener\b/);
    }
    const add = card.getByRole('button', { name: `Add to cart: ${product.name}` });
    await expect(add).toHaveText('Add to cart');
  }
});

test('the large picture opens in a new window', async ({ page }) => {
  await signUp(page);
  const card = page.getByRole('article', { name: 'Anky Bridle' });
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('heading').getByRole('link', { name: 'Anky Bridle' }).click(),
  ]);
  await popup.waitForLoadState();
  expect(new URL(popup.url()).pathname).toBe('/pictures/anky-bridle.svg');
  await popup.close();
});

test('add goes to the cart, with the size chosen', async ({ page }) => {
  await signUp(page);
  const card = productCard(page, 'Carlson Barn Jacket');
  await card.getByLabel('Size').selectOption('L');
  await card.getByRole('button', { name: 'Add to cart: Carlson Barn Jacket' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(
    page.getByRole('table', { name: 'Your cart' }).getByText(itemText('Carlson Barn Jacket', 'L')),
  ).toBeVisible();
});

test('header links when logged in and logged out', async ({ page }) => {
  await signUp(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'view cart' })).toHaveAttribute('href', '/cart');
  await expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/manage-account');
  await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Log in' })).toHaveCount(0);

  await nav.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/manage-account$/);
  await expect(nav.getByRole('link', { name: 'view cart' })).toBeVisible();
  await nav.getByRole('link', { name: 'view cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await nav.getByRole('link', { name: 'view items' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await nav.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(nav.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/signup-login');
  await expect(nav.getByRole('button', { name: 'Log out' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Account' })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  // The server ended the session too: a guarded page is out of reach.
  await page.goto('/home');
  await expect(page).toHaveURL(/\/signup-login$/);
});
