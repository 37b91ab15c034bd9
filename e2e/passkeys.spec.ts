import type { Page } from '@playwright/test';
import {
  confirmationLink,
  expect,
  expectHomePage,
  expectNoSevereAxeViolation,
  pageOnAnotherDevice,
  passkeyShop,
  showLogIn,
  signUp,
  signUpConfirmed,
  test,
} from './support';

const shop = passkeyShop();
test.skip(!shop, 'The passkey shop is not running: set E2E_PASSKEY_BASE_URL to a shop whose PUBLIC_URL names a host.');

/** A phone's width: every passkey control must fit it. */
test.use({ viewport: { width: 375, height: 812 } });

const passkeysSection = (page: Page) => page.getByRole('region', { name: 'Passkeys' });
const addForm = (page: Page) => page.getByRole('form', { name: 'Add a passkey' });

/**
 * A page on the passkey shop whose browser has a platform authenticator that holds passkeys and says yes at once (the
 * DevTools protocol's WebAuthn domain: a virtual authenticator, as a phone's or laptop's screen lock would be).
 */
async function pageWithAuthenticator(
  browser: Parameters<typeof pageOnAnotherDevice>[0],
  { autofill }: { autofill: boolean },
): Promise<Page> {
  const page = await pageOnAnotherDevice(browser, shop);
  await page.setViewportSize({ width: 375, height: 812 });
  // Chromium's virtual authenticator answers a waiting autofill request at once, as if the rider had picked the
  // passkey: a browser without passkey autofill is one that says it has none.
  if (!autofill) {
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
  }
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

async function addPasskey(page: Page, name: string): Promise<void> {
  await page.goto('/manage-account');
  await addForm(page).getByLabel('Passkey name').fill(name);
  await addForm(page).getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeysSection(page).getByRole('status')).toHaveText(`The passkey ${name} has been added.`);
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/signup-login$/);
}

test('a rider adds a passkey by name, logs in with it, and removes it', async ({ browser }) => {
  const page = await pageWithAuthenticator(browser, { autofill: false });
  await signUpConfirmed(page);
  await addPasskey(page, 'Laptop');
  const list = passkeysSection(page).getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveText([/^Laptop, added .+Remove Laptop$/]);
  await expectNoSevereAxeViolation(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await logOut(page);
  await showLogIn(page);
  await expectNoSevereAxeViolation(page);
  await page.getByRole('button', { name: 'Log in with a passkey' }).click();
  await expectHomePage(page);

  await page.goto('/manage-account');
  await passkeysSection(page).getByRole('button', { name: 'Remove Laptop' }).click();
  await expect(passkeysSection(page).getByRole('status')).toHaveText('The passkey Laptop has been removed.');
  await expect(passkeysSection(page).getByText('You have no passkeys yet.')).toBeVisible();

  // Gone from the shop, the passkey the device still holds logs nobody in.
  await logOut(page);
  await showLogIn(page);
  await page.getByRole('button', { name: 'Log in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText(/does not know this passkey/);
  await expect(page).toHaveURL(/\/signup-login$/);
});

test('the log-in form offers the passkey in the e-mail field’s autofill', async ({ browser }) => {
  const page = await pageWithAuthenticator(browser, { autofill: true });
  await signUpConfirmed(page);
  await addPasskey(page, 'Phone');
  await logOut(page);
  await showLogIn(page);
  // The virtual authenticator answers the waiting autofill request with its one passkey, as a rider picking it would:
  // at once, so the form may be gone before anyone could look at it. Without `webauthn` in the e-mail field's
  // autocomplete, Chromium offers no passkey there and the rider stays on the form.
  await expectHomePage(page);
});

test('adding a passkey after a log-in older than 5 minutes says to log in again', async ({ browser }) => {
  const page = await pageWithAuthenticator(browser, { autofill: false });
  await signUpConfirmed(page);
  await page.goto('/manage-account');
  // The server's refusal, as it answers a session that is too old (test/api/passkeys.test.ts ages one for real).
  await page.route('**/api/account/passkeys/options', (route) =>
    route.fulfill({
      status: 403,
      json: { code: 'auth/requires-recent-login', message: 'This needs a recent log-in. Please log in again.' },
    }),
  );
  await addForm(page).getByLabel('Passkey name').fill('Phone');
  await addForm(page).getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeysSection(page).getByRole('alert')).toHaveText(
    'Adding a passkey needs a log-in in the last 5 minutes. Please log out, log in again, then add it.',
  );
  await expect(passkeysSection(page).getByText('You have no passkeys yet.')).toBeVisible();
  await expectNoSevereAxeViolation(page);
});

test('an account whose address is not confirmed is told why it cannot add a passkey yet, until the link is opened', async ({
  browser,
}) => {
  const page = await pageWithAuthenticator(browser, { autofill: false });
  const rider = await signUp(page);
  await page.goto('/manage-account');
  await expect(passkeysSection(page).getByText('You have no passkeys yet.')).toBeVisible();
  await expect(passkeysSection(page)).toContainText(
    `You can add a passkey once your e-mail address is confirmed: open the link we sent to ${rider.email}.`,
  );
  await expect(addForm(page)).toHaveCount(0);
  await expectNoSevereAxeViolation(page);

  // The link opened in another tab of this browser: the form appears without a reload, and the passkey is added.
  const tab = await page.context().newPage();
  await tab.goto(await confirmationLink(rider));
  await expect(tab.getByRole('status')).toHaveText(`Thank you: your e-mail address ${rider.email} is confirmed.`);
  await tab.close();
  await addForm(page).getByLabel('Passkey name').fill('Phone');
  await addForm(page).getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeysSection(page).getByRole('status')).toHaveText('The passkey Phone has been added.');
});
