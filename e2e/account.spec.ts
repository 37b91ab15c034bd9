import type { Page } from '@playwright/test';
import { addToCart, expect, logIn, logInForm, newRider, pageOnAnotherDevice, showLogIn, signUp, test } from './support';

const emailForm = (page: Page) => page.getByRole('form', { name: 'Change e-mail' });
const passwordForm = (page: Page) => page.getByRole('form', { name: 'Change password' });
const deleteForm = (page: Page) => page.getByRole('form', { name: 'Delete account' });

async function expectLogInFails(page: Page, email: string, password: string) {
  await page.goto('/signup-login');
  await showLogIn(page);
  const form = logInForm(page);
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail address or password is wrong.');
  await expect(page).toHaveURL(/\/signup-login$/);
}

test('the page has three forms and says what happens', async ({ page }) => {
  await signUp(page);
  await page.goto('/manage-account');
  await expect(emailForm(page).getByLabel('New e-mail')).toHaveAttribute('type', 'email');
  await expect(passwordForm(page).getByLabel('New password')).toHaveAttribute('type', 'password');
  await expect(deleteForm(page).getByRole('textbox')).toHaveCount(0);
  await expect(deleteForm(page).getByText(/cannot be undone/)).toBeVisible();
  await expect(page.getByText(/changing your e-mail or password logs you out afterwards/i)).toBeVisible();

  const submit = emailForm(page).getByRole('button', { name: 'Change e-mail' });
  await expect(submit).toBeDisabled();
  await emailForm(page).getByLabel('New e-mail').fill('abc');
  await expect(emailForm(page).getByLabel('New e-mail')).toHaveAccessibleDescription(/at least 6 characters\./);
  await expect(submit).toBeDisabled();
  await passwordForm(page).getByLabel('New password').fill('x'.repeat(17));
  await expect(passwordForm(page).getByText('Password must be at most 16 characters.')).toBeVisible();
  await expect(passwordForm(page).getByRole('button', { name: 'Change password' })).toBeDisabled();
});

test('changing the e-mail logs out; the new e-mail logs in, the old one does not', async ({ page }) => {
  const rider = await signUp(page);
  await page.goto('/manage-account');
  const renamed = newRider().email;
  await emailForm(page).getByLabel('New e-mail').fill(renamed);
  await emailForm(page).getByRole('button', { name: 'Change e-mail' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(page.getByRole('status')).toHaveText('Your e-mail address has been changed. Please log in again.');
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  await expectLogInFails(page, rider.email, rider.password);
  await logIn(page, { email: renamed, password: rider.password });
});

test('changing the password logs out; the new password logs in, the old one does not', async ({ page }) => {
  const rider = await signUp(page);
  await page.goto('/manage-account');
  await passwordForm(page).getByLabel('New password').fill('Passage-77');
  await passwordForm(page).getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Please log in again.');

  await expectLogInFails(page, rider.email, rider.password);
  await logIn(page, { email: rider.email, password: 'Passage-77' });
});

test('a failed change still logs out and shows the server message', async ({ page, browser }) => {
  const rider = await signUp(page);
  const elsewhere = await pageOnAnotherDevice(browser);
  const other = await signUp(elsewhere);
  await elsewhere.context().close();
  await page.goto('/manage-account');
  await emailForm(page).getByLabel('New e-mail').fill(other.email);
  await emailForm(page).getByRole('button', { name: 'Change e-mail' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(page.getByRole('alert')).toHaveText('This e-mail address is already in use by another account.');
  // Logged out, as docs/product.md §4 says, even though nothing changed.
  await page.goto('/home');
  await expect(page).toHaveURL(/\/signup-login$/);
  await logIn(page, rider);
});

test('deleting the account lands on signup-login; the old credentials fail afterwards', async ({ page }) => {
  const rider = await signUp(page);
  await addToCart(page, 'Anky Bridle');
  await page.goto('/manage-account');
  await deleteForm(page).getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await expect(page.getByRole('status')).toHaveText('Your account has been deleted.');
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  await page.goto('/cart');
  await expect(page).toHaveURL(/\/signup-login$/);
  await expectLogInFails(page, rider.email, rider.password);
});

// The 5-minute recent-login rule cannot be waited out here, and the server has no test hooks (the API
// tests cover the rule itself); the page's handling of the server's answer is checked by faking it.
test('deleting without a recent log-in asks the rider to sign in again', async ({ page }) => {
  await signUp(page);
  await page.goto('/manage-account');
  await page.route('**/api/account', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'auth/requires-recent-login',
            message: 'This needs a recent log-in. Please log in again.',
          }),
        })
      : route.continue(),
  );
  await deleteForm(page).getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please sign in again to delete your account.');
  await expect(page).toHaveURL(/\/manage-account$/);
});

test('any other deletion error is shown, not swallowed', async ({ page }) => {
  await signUp(page);
  await page.goto('/manage-account');
  await page.route('**/api/account', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'server/unavailable', message: 'The server is shutting down. Please try again.' }),
    }),
  );
  await deleteForm(page).getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('alert')).toHaveText('The server is shutting down. Please try again.');
});
