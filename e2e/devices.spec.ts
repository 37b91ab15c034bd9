import type { Browser, Page } from '@playwright/test';
import {
  expect,
  expectHomePage,
  expectNoSevereAxeViolation,
  logIn,
  pageOnAnotherDevice,
  type Rider,
  signUp,
  test,
} from './support';

/** Where you are logged in (docs/product.md §4), on the account page, with a phone as the other device. */
const iPhone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const phoneScreen = { width: 375, height: 740 };

const sessionsSection = (page: Page) => page.getByRole('region', { name: 'Where you are logged in' });
const sessionItems = (page: Page) => sessionsSection(page).getByRole('listitem');

/** The rider's phone, logged in and on the home page, which follows the live stock stream. */
async function phoneOf(browser: Browser, rider: Rider): Promise<Page> {
  const phone = await pageOnAnotherDevice(browser, undefined, {
    userAgent: iPhone,
    viewport: phoneScreen,
    isMobile: true,
  });
  await logIn(phone, rider);
  return phone;
}

test("lists both devices, and 'Log out of all other devices' sends the phone's page to signup-login", async ({
  page,
  browser,
}) => {
  await page.setViewportSize(phoneScreen);
  const rider = await signUp(page);
  const phone = await phoneOf(browser, rider);

  await page.goto('/manage-account');
  await expect(sessionItems(page)).toHaveCount(2);
  const thisDevice = sessionItems(page).filter({ hasText: 'This device' });
  await expect(thisDevice).toHaveCount(1);
  await expect(thisDevice).toContainText('Chrome on Linux');
  await expect(thisDevice).toContainText('In use now');
  const phoneItem = sessionItems(page).filter({ hasText: 'Safari on iPhone' });
  await expect(phoneItem).not.toContainText('This device');
  await expect(phoneItem).toContainText(/From 10\.\d+\.\d+\.\d+/);
  await expect(phoneItem).toContainText('Last used in the last 5 minutes');
  await expect(phoneItem.getByRole('button', { name: /^Log out Safari on iPhone from 10\./ })).toBeVisible();

  await expectNoSevereAxeViolation(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phoneScreen.width);

  await sessionsSection(page).getByRole('button', { name: 'Log out of all other devices' }).click();
  await expect(sessionsSection(page).getByRole('status')).toHaveText('Logged out of 1 other device.');
  await expect(phone).toHaveURL(/\/signup-login$/, { timeout: 2_000 });
  await expect(sessionItems(page)).toHaveCount(1);
  await expect(sessionsSection(page).getByRole('button', { name: 'Log out of all other devices' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/manage-account$/);
  await expectNoSevereAxeViolation(page);
  await phone.context().close();
});

test('logs out one device by its button; logging out this device from the list is a log-out', async ({
  page,
  browser,
}) => {
  const rider = await signUp(page);
  const phone = await phoneOf(browser, rider);

  // The phone ends the desktop's session from its own list: the desktop's page goes to signup-login.
  await page.goto('/home');
  await expectHomePage(page);
  await phone.goto('/manage-account');
  await sessionItems(phone)
    .getByRole('button', { name: /^Log out Chrome on Linux from / })
    .click();
  await expect(sessionsSection(phone).getByRole('status')).toHaveText('Logged out of Chrome on Linux.');
  await expect(page).toHaveURL(/\/signup-login$/, { timeout: 2_000 });
  await expect(sessionItems(phone)).toHaveCount(1);

  await sessionItems(phone).getByRole('button', { name: 'Log out this device, Safari on iPhone' }).click();
  await expect(phone).toHaveURL(/\/signup-login$/);
  expect(await phone.evaluate(() => localStorage.getItem('user'))).toBeNull();
  await phone.context().close();
});
