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

test('a stale hint without a session renders, then goes to signup-login and clears the hint', async ({ page }) => {
  await page.goto('/signup-login');
  await page.evaluate(() => localStorage.setItem('user', JSON.stringify({ uid: 'gone', email: 'gone@example.test' })));
  await page.goto('/cart');
  await expect(page).toHaveURL(/\/signup-login$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});
