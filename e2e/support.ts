import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type Browser, test as base, expect, type Page } from '@playwright/test';

export { expect };

/**
 * A client address of its own for every browser context, as riders on their own lines have, so that the
 * per-address limits (sign-ups, log-ins) count each test apart. The server trusts X-Forwarded-For here, as it
 * does behind a proxy (TRUST_PROXY=1 in playwright.config.ts).
 */
function ownAddress(): Record<string, string> {
  const [a, b, c] = randomBytes(3);
  return { 'x-forwarded-for': `10.${a}.${b}.${c}` };
}

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern; it has none.
  extraHTTPHeaders: async ({}, use) => use(ownAddress()),
});

export const password = 'Canter-42';

export interface Rider {
  email: string;
  password: string;
}

/** A page in a fresh browser context: another browser or device, with its own cookies and storage. */
export async function pageOnAnotherDevice(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: ownAddress(),
  });
  return context.newPage();
}

export function newRider(): Rider {
  return { email: `rider-${randomBytes(6).toString('hex')}@example.test`, password };
}

export const signUpForm = (page: Page) => page.getByRole('form', { name: 'Sign up' });
export const logInForm = (page: Page) => page.getByRole('form', { name: 'Log in' });
export async function showLogIn(page: Page): Promise<void> {
  await page.getByRole('group', { name: 'Choose a form' }).getByRole('button', { name: 'Log in' }).click();
}

export const cartTable = (page: Page) => page.getByRole('table', { name: 'Your cart' });
export const deleteButtons = (page: Page) => cartTable(page).getByRole('button', { name: /^Delete / });

/** The Total row's amount; the row also holds the hidden No. cell, hence the second cell. */
export const totalCell = (page: Page) => cartTable(page).getByRole('row', { name: /Total/ }).getByRole('cell').nth(1);

/**
 * Waits for the home page itself, as a rider does. The URL alone is not enough: the router changes it just
 * before it shows the new page, so a step taken on the URL alone can still meet the previous page.
 */
export async function expectHomePage(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
}

/** Signs a fresh rider up through the page and waits for the home page. */
export async function signUp(page: Page, rider: Rider = newRider()): Promise<Rider> {
  await page.goto('/signup-login');
  const form = signUpForm(page);
  await form.getByLabel('E-mail').fill(rider.email);
  await form.getByLabel('Password').fill(rider.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expectHomePage(page);
  return rider;
}

export async function logIn(page: Page, rider: Rider): Promise<void> {
  await page.goto('/signup-login');
  await showLogIn(page);
  const form = logInForm(page);
  await form.getByLabel('E-mail').fill(rider.email);
  await form.getByLabel('Password').fill(rider.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expectHomePage(page);
}

/** Adds a product from the home page and waits for the cart page to show it. */
export async function addToCart(page: Page, productName: string): Promise<void> {
  if (!page.url().endsWith('/home')) await page.goto('/home');
  await page.getByRole('button', { name: `Add to cart: ${productName}` }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartTable(page)).toBeVisible();
}

/** A delivery address, by the labels of the checkout form. */
export const deliveryAddress: Readonly<Record<string, string>> = {
  'Full name': 'Ada Rider',
  'Address line 1': '12 Stable Row',
  City: 'Wellington',
  'State or region': 'FL',
  'Postal code': '33414',
};

export const checkoutForm = (page: Page) => page.getByRole('form', { name: 'Checkout' });

export async function fillAddress(page: Page): Promise<void> {
  for (const [label, value] of Object.entries(deliveryAddress)) {
    await checkoutForm(page).getByLabel(label, { exact: true }).fill(value);
  }
}

/** Checks out the cart as it is, by bank transfer, and waits for the confirmation; the order's number. */
export async function placeOrder(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await fillAddress(page);
  await checkoutForm(page).getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  const number = /\/orders\/(PF-\d+)$/.exec(page.url())?.[1];
  if (!number) throw new Error(`not on an order page: ${page.url()}`);
  return number;
}

export interface Mail {
  id: number;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Every e-mail the shop's mailbox has received over SMTP so far. */
export async function receivedMails(): Promise<Mail[]> {
  return (await (await fetch(`${process.env.E2E_MAILBOX_URL}/mails.json`)).json()) as Mail[];
}

/** The first e-mail to `email` whose subject matches, as the shop's mailbox received it over SMTP. */
export async function mailTo(email: string, subject: string | RegExp): Promise<Mail> {
  const matches = (mail: Mail) =>
    mail.to.includes(email) && (typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject));
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await receivedMails()).find(matches);
        return found !== undefined;
      },
      { message: `an e-mail to ${email}: ${subject}`, timeout: 10_000 },
    )
    .toBe(true);
  return found as Mail;
}

/**
 * Makes the rider an owner with the shop's own command line (npm run owner, as built), on the database of the
 * server under test.
 */
export function makeOwner(rider: Rider): void {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: set it to the database of the shop under test.');
  execFileSync(process.execPath, ['dist-server/owner-cli.js', 'add', rider.email], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'pipe',
  });
}
