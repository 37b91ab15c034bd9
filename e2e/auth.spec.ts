import { expect, logIn, logInForm, newRider, showLogIn, signUp, signUpForm, signUpThroughForm, test } from './support';

test('the sign-up form comes first; the toggles switch forms', async ({ page }) => {
  await page.goto('/signup-login');
  const toggles = page.getByRole('group', { name: 'Choose a form' });
  const logInToggle = toggles.getByRole('button', { name: 'Log in' });
  const signUpToggle = toggles.getByRole('button', { name: 'Sign up' });
  await expect(signUpToggle).toHaveAttribute('aria-pressed', 'true');
  await expect(logInToggle).toHaveAttribute('aria-pressed', 'false');
  await expect(signUpForm(page)).toBeVisible();
  await expect(logInForm(page)).toHaveCount(0);

  await logInToggle.click();
  await expect(logInToggle).toHaveAttribute('aria-pressed', 'true');
  await expect(logInForm(page)).toBeVisible();
  await expect(signUpForm(page)).toHaveCount(0);

  await signUpToggle.click();
  await expect(signUpForm(page)).toBeVisible();
});

test('fields are labelled; submit stays disabled while invalid, with the problem next to the field', async ({
  page,
}) => {
  await page.goto('/signup-login');
  const form = signUpForm(page);
  const email = form.getByLabel('E-mail');
  const password = form.getByLabel('Password');
  const submit = form.getByRole('button', { name: 'Sign up' });
  await expect(email).toHaveAttribute('type', 'email');
  await expect(email).toHaveAttribute('autocomplete', 'email');
  await expect(password).toHaveAttribute('type', 'password');
  await expect(password).toHaveAttribute('autocomplete', 'new-password');
  await expect(submit).toBeDisabled();
  // Nothing is flagged before the rider has touched a field.
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');

  await email.fill('a@b');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/E-mail must be at least 6 characters\./);
  await email.fill('rider at example.test');
  await expect(email).toHaveAccessibleDescription(/E-mail must be a proper e-mail address/);
  await email.fill('rider@example.test');
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  await expect(submit).toBeDisabled();

  await password.fill('12345');
  await expect(password).toHaveAccessibleDescription(/Password must be at least 6 characters\./);
  await password.fill('12345678901234567');
  await expect(password).toHaveAccessibleDescription(/Password must be at most 16 characters\./);
  await expect(submit).toBeDisabled();
  await password.fill('1234567890123456');
  await expect(password).not.toHaveAttribute('aria-invalid', 'true');
  await expect(submit).toBeEnabled();
});

test('leaving an empty field says it is required', async ({ page }) => {
  await page.goto('/signup-login');
  const email = signUpForm(page).getByLabel('E-mail');
  await email.focus();
  await email.blur();
  // Said aloud as it appears: the rider has already moved on from the field.
  await expect(signUpForm(page).getByRole('alert')).toHaveText('E-mail is required.');
});

test('sign-up stores the hint and goes home', async ({ page }) => {
  const rider = await signUpThroughForm(page);
  const hint = JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? 'null');
  expect(hint).toEqual({ uid: expect.any(String), email: rider.email, emailConfirmed: false });
  expect(hint.uid.length).toBeGreaterThan(0);
});

test('signing up twice with one e-mail shows the server message', async ({ page }) => {
  const rider = await signUp(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  const form = signUpForm(page);
  await form.getByLabel('E-mail').fill(rider.email);
  await form.getByLabel('Password').fill(rider.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('alert')).toHaveText('This e-mail address is already in use by another account.');
  await expect(page).toHaveURL(/\/signup-login$/);
});

test('an existing rider logs in', async ({ page }) => {
  const rider = await signUp(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  await logIn(page, rider);
  await expect(page.getByRole('button', { name: 'Add to cart: Anky Bridle' })).toBeVisible();
  const hint = JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? 'null');
  expect(hint.email).toBe(rider.email);
});

test('a wrong password shows the server message in an alert and leaves the rider signed out', async ({ page }) => {
  const rider = await signUp(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
  await showLogIn(page);
  const form = logInForm(page);
  await expect(form.getByLabel('Password')).toHaveAttribute('autocomplete', 'current-password');
  await form.getByLabel('E-mail').fill(rider.email);
  await form.getByLabel('Password').fill('Wrong-pass-1');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail address or password is wrong.');
  await expect(page).toHaveURL(/\/signup-login$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});

test('an unknown e-mail cannot log in', async ({ page }) => {
  await page.goto('/signup-login');
  await showLogIn(page);
  const form = logInForm(page);
  await form.getByLabel('E-mail').fill(newRider().email);
  await form.getByLabel('Password').fill('Canter-42');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail address or password is wrong.');
});
