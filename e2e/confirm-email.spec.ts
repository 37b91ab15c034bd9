import {
  addToCart,
  checkoutForm,
  confirmationLink,
  confirmationSubject,
  expect,
  expectNoSevereAxeViolation,
  fillAddress,
  logIn,
  pageOnAnotherDevice,
  receivedMails,
  signUp,
  test,
} from './support';

const bannerOf = (page: import('@playwright/test').Page) =>
  page.getByRole('region', { name: 'E-mail address to confirm' });

test('until the link is opened, every page asks for it; Send it again sends another', async ({ page }) => {
  const rider = await signUp(page);
  const banner = bannerOf(page);
  await expect(banner).toContainText(`Please confirm your e-mail address: we sent a link to ${rider.email}.`);
  for (const path of ['/cart', '/manage-account', '/orders']) {
    await page.goto(path);
    await expect(bannerOf(page)).toBeVisible();
  }
  await expectNoSevereAxeViolation(page);

  await banner.getByRole('button', { name: 'Send it again' }).click();
  await expect(banner.getByRole('status')).toHaveText(`We have sent a new link to ${rider.email}.`);
  await expect
    .poll(
      async () =>
        (await receivedMails()).filter((m) => m.to.includes(rider.email) && m.subject === confirmationSubject).length,
    )
    .toBe(2);

  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSevereAxeViolation(page);
});

test('the checkout waits for the link opened in another tab, keeping what the rider typed', async ({
  page,
  context,
}) => {
  const rider = await signUp(page);
  await addToCart(page, 'Ariat Westchester Boots');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(page);
  const form = checkoutForm(page);
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Please confirm your e-mail address before you order: open the link we sent you, then place your order again.',
  );

  // The rider opens the link from the e-mail in another tab of the same browser.
  const tab = await context.newPage();
  await tab.goto(await confirmationLink(rider));
  await expect(tab.getByRole('status')).toHaveText(`Thank you: your e-mail address ${rider.email} is confirmed.`);
  await tab.close();

  // Without a reload: the page hears of it, the banner goes, the form is as it was.
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed: you can place your order now.', {
    timeout: 2_000,
  });
  await expect(bannerOf(page)).toHaveCount(0);
  await expect(form.getByLabel('Full name')).not.toHaveValue('');
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
});

test('the link works once, in any browser, and ends the sessions of the others; a used link says so', async ({
  page,
  browser,
}) => {
  const rider = await signUp(page);
  const link = await confirmationLink(rider);

  // On the phone, not logged in.
  const phone = await pageOnAnotherDevice(browser);
  await phone.goto(link);
  await expect(phone.getByRole('status')).toHaveText(`Thank you: your e-mail address ${rider.email} is confirmed.`);
  await expect(phone).toHaveURL(/\/confirm-email$/);
  await expect(phone.getByRole('main').getByRole('link', { name: 'Log in' })).toBeVisible();
  await expectNoSevereAxeViolation(phone);

  // The laptop's session ends at once: until the address was proven, whoever knew the password could be logged in
  // there (docs/SECURITY.md), so only the browser that opened the link stays logged in. Its open page goes to
  // signup-login.
  await expect(page).toHaveURL(/\/signup-login$/, { timeout: 2_000 });

  // The e-mail's link clicked again opens another tab.
  const again = await phone.context().newPage();
  await again.goto(link);
  await expect(again.getByRole('alert')).toHaveText(
    'This link to confirm your e-mail address has already been used. Please ask for a new one if you need it.',
  );
  await expect(again.getByText('Log in to ask for a new link.')).toBeVisible();
  await phone.context().close();

  // Logged in again, nothing asks for the address any more.
  await logIn(page, rider);
  await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
  await expect(bannerOf(page)).toHaveCount(0);
});
