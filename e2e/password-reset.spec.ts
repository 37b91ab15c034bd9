import {
  expect,
  logIn,
  logInForm,
  mailTo,
  newRider,
  pageOnAnotherDevice,
  receivedMails,
  showLogIn,
  signUp,
  test,
} from './support';

/** The reset link of the e-mail that arrived for `email`. */
async function resetLink(email: string): Promise<string> {
  const mail = await mailTo(email, 'Reset your password');
  const link = /(http\S+\/reset-password#token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no link in: ${mail.text}`);
  return link;
}

async function askForLink(page: import('@playwright/test').Page, email: string): Promise<void> {
  const form = page.getByRole('form', { name: /Forgot your password\?|Send a new link/ });
  await form.getByLabel('E-mail').fill(email);
  await form.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'If an account exists for that address, we have sent a link to reset the password.',
  );
}

test('a rider who forgot the password resets it from the e-mailed link, and old sessions end', async ({
  page,
  browser,
}) => {
  const rider = await signUp(page);
  // Another device stays logged in until the reset.
  const device = await pageOnAnotherDevice(browser);
  await logIn(device, rider);

  const reset = await pageOnAnotherDevice(browser);
  await reset.goto('/signup-login');
  await showLogIn(reset);
  await logInForm(reset).getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(reset).toHaveURL(/\/reset-password$/);
  await expect(reset).toHaveTitle('Reset your password · Piaffe');
  await askForLink(reset, rider.email);

  await reset.goto(await resetLink(rider.email));
  const form = reset.getByRole('form', { name: 'Choose a new password' });
  await form.getByLabel('New password').fill('New-Canter-7');
  await form.getByRole('button', { name: 'Set new password' }).click();
  await expect(reset).toHaveURL(/\/signup-login$/);
  await expect(reset.getByRole('status')).toHaveText(
    'Your password has been reset: every device has been logged out and every passkey removed. Please log in again.',
  );
  await expect(logInForm(reset)).toBeVisible();
  await logInForm(reset).getByLabel('E-mail').fill(rider.email);
  await logInForm(reset).getByLabel('Password').fill('New-Canter-7');
  await logInForm(reset).getByRole('button', { name: 'Log in' }).click();
  await expect(reset).toHaveURL(/\/home$/);
  await mailTo(rider.email, 'Your password has been changed');

  // The other device's session has ended: its next page goes to signup-login.
  await device.goto('/cart');
  await expect(device).toHaveURL(/\/signup-login$/);
  await device.context().close();
  await reset.context().close();
});

test('an address without an account gets the same answer and no e-mail', async ({ page }) => {
  const nobody = newRider();
  const known = newRider();
  await page.goto('/reset-password');
  await askForLink(page, nobody.email);
  // The e-mail for a known address arrives; none ever came for the unknown one before it.
  await signUp(page, known);
  await page.goto('/reset-password');
  await askForLink(page, known.email);
  await mailTo(known.email, 'Reset your password');
  const mails = await receivedMails();
  expect(mails.filter((mail) => mail.to.includes(nobody.email))).toEqual([]);
});

test('a used link says so and offers a new one', async ({ page }) => {
  const rider = await signUp(page);
  await page.goto('/reset-password');
  await askForLink(page, rider.email);
  const link = await resetLink(rider.email);
  await page.goto(link);
  const form = page.getByRole('form', { name: 'Choose a new password' });
  await form.getByLabel('New password').fill('New-Canter-7');
  await form.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);

  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText(
    'This link to reset the password has already been used. Please ask for a new one.',
  );
  await askForLink(page, rider.email);
});

test('a link that is not one of ours says so', async ({ page }) => {
  await page.goto(`/reset-password#token=${'a'.repeat(43)}`);
  await expect(page.getByRole('alert')).toHaveText(
    'This link to reset the password is not valid. Please ask for a new one.',
  );
  await expect(page.getByRole('form', { name: 'Send a new link' })).toBeVisible();
});
