import { addToCart, cartTable, chooseSize, deleteButtons, expect, itemText, signUp, test } from './support';

test('a failed add shows exactly "Error adding document." and stays home', async ({ page }) => {
  await signUp(page);
  await page.route('**/api/cart', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"code":"server/internal","message":"x"}',
        })
      : route.continue(),
  );
  await chooseSize(page, 'Anky Bridle');
  await page.getByRole('button', { name: 'Add to cart: Anky Bridle' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error adding document.');
  await expect(page).toHaveURL(/\/home$/);
});

test('an answer that does not match the contract is a failed add, not a cart row', async ({ page }) => {
  await signUp(page);
  await page.route('**/api/cart', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 201, contentType: 'application/json', body: '{"item":{"id":42}}' })
      : route.continue(),
  );
  await chooseSize(page, 'Anky Bridle');
  await page.getByRole('button', { name: 'Add to cart: Anky Bridle' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error adding document.');
  await expect(page).toHaveURL(/\/home$/);
});

test('a failed delete shows exactly "Error deleting document" and keeps the row', async ({ page }) => {
  await signUp(page);
  await addToCart(page, 'Fellmore Bridle');
  await page.route('**/api/cart/*', (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: 'oops' }) : route.continue(),
  );
  await cartTable(page)
    .getByRole('button', { name: `Delete ${itemText('Fellmore Bridle')}` })
    .click();
  await expect(page.getByRole('alert')).toHaveText('Error deleting document');
  await expect(deleteButtons(page)).toHaveCount(1);
});

test('no blocking dialog is ever opened', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/signup-login');
  await page.getByRole('group', { name: 'Choose a form' }).getByRole('button', { name: 'Log in' }).click();
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('E-mail').fill('nobody@example.test');
  await form.getByLabel('Password').fill('Wrong-pass-1');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(dialogs).toEqual([]);
});

test('a page whose code cannot be loaded says so, inside the shop, and the other pages still work', async ({
  page,
}) => {
  await signUp(page);
  // As after a deploy, when an open tab asks for a chunk of the build it started with.
  await page.route('**/assets/cart-page-*.js', (route) => route.abort());
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'view cart' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByText('This page could not be shown. Please reload the page to try again.')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await nav.getByRole('link', { name: 'view items' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
});
