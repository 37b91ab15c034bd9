import { expect, signUp, test } from './support';

test('/ redirects to /home, which sends a visitor without a session to signup-login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signup-login$/);
});

test('/ redirects a logged-in rider to /home', async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
});

test('an unknown path shows the Snap! page with status 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Snap!' })).toBeVisible();
  await expect(page.getByText('404 – Page Not Found')).toBeVisible();
  await expect(page.getByText('Sorry. An error has occurred, and the requested page cannot be found.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
  // Home is guarded, so a visitor without a session ends up at signup-login.
  await expect(page).toHaveURL(/\/signup-login$/);
});

for (const path of ['/home', '/cart', '/manage-account']) {
  test(`a visitor without a session on ${path} lands on signup-login`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/signup-login$/);
    await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
  });
}

// The header and the page must never disagree: the session the server confirms decides both.

test('a session without a stored hint reaches the page asked for, with the logged-in header', async ({ page }) => {
  await signUp(page);
  // Cleared storage, or a second origin of the same shop: the session cookie is there, the hint is not.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/cart');
  await expect(page.getByRole('heading', { level: 1, name: 'Your cart' })).toBeVisible();
  await expect(page).toHaveURL(/\/cart$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'view items' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Log in' })).toHaveCount(0);
});

test('a stale hint without a session goes to signup-login, with the logged-out header, and clears the hint', async ({
  page,
}) => {
  await page.goto('/signup-login');
  await page.evaluate(() => localStorage.setItem('user', JSON.stringify({ uid: 'gone', email: 'gone@example.test' })));
  await page.goto('/cart');
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Log out' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Account' })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});
