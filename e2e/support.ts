import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, test as base, expect, type Page } from '@playwright/test';
import { firstCatalogue as catalogue } from '../src/server/db/migrations/0009-owners-catalogue';
import { type DemoCounts, type FreshShop, startFreshShop } from './shops';

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

/**
 * A page in a fresh browser context: another browser or device, with its own cookies and storage; on the shop of the
 * project unless told another (a fresh shop's, `testOnFreshShop`); `options` may make it another kind of device (a
 * phone's user agent and screen).
 */
export async function pageOnAnotherDevice(
  browser: Browser,
  baseURL = test.info().project.use.baseURL,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL, extraHTTPHeaders: ownAddress() });
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

/** The back office's settings form (docs/product.md §17). */
export const settingsForm = (page: Page) => page.getByRole('form', { name: 'Settings' });

/** The owner's choice in 'Who can see the shop', saved. */
export async function openTo(page: Page, choice: 'Everyone' | 'Members only', version: number): Promise<void> {
  await page.goto('/admin/settings');
  await settingsForm(page).getByRole('group', { name: 'Who can see the shop' }).getByLabel(choice).check();
  await settingsForm(page).getByRole('button', { name: 'Save' }).click();
  await expect(settingsForm(page).getByRole('status')).toHaveText(`Saved. This is version ${version} of the settings.`);
}

/**
 * Opens a public page of an open shop, which the server renders, and waits until the app has taken it over (its
 * catalogue stream open, which the app opens once it runs): its scripts are fetched after its first paint (ADR 0063),
 * so a control that needs them does nothing before, as for a rider whose scripts are still on their way.
 */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  const stream = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/catalogue/stream');
  await page.goto(path);
  await stream;
}

/** A new shop's owner, signed up on `page`, who opens the shop to everyone (its settings' version 2). */
export async function openShopAsOwner(page: Page, shop: FreshShop): Promise<void> {
  await signUpOwner(page, shop);
  await openTo(page, 'Everyone', 2);
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

/**
 * One of the page's own requests to the shop, as its scripts send them, in the page's browser context: its cookies
 * go with it and the answer's are set, from the context's own client address (X-Forwarded-For). Answers the JSON.
 */
async function pageRequest(page: Page, path: string, data: unknown, status: number): Promise<unknown> {
  const response = await page.request.post(path, { data });
  const body = await response.text();
  expect(response.status(), `POST ${path}: ${body}`).toBe(status);
  return body ? JSON.parse(body) : undefined;
}

/**
 * Signs a fresh rider up by the sign-up form's own request (POST /api/auth/signup, in the page's browser context, so
 * its session cookie is set) and opens the home page, signed in: for the tests whose subject is not the sign-up form,
 * which `signUpThroughForm` fills in instead.
 */
export async function signUp(page: Page, rider: Rider = newRider()): Promise<Rider> {
  await pageRequest(page, '/api/auth/signup', { email: rider.email, password: rider.password }, 201);
  await page.goto('/home');
  await expectHomePage(page);
  return rider;
}

/** Signs a fresh rider up through the page's sign-up form, as a rider does, and waits for the home page. */
export async function signUpThroughForm(page: Page, rider: Rider = newRider()): Promise<Rider> {
  await page.goto('/signup-login');
  const form = signUpForm(page);
  await form.getByLabel('E-mail').fill(rider.email);
  await form.getByLabel('Password').fill(rider.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expectHomePage(page);
  return rider;
}

/** The subject of the e-mail with the link that confirms a rider's address (docs/product.md §15). */
export const confirmationSubject = 'Please confirm your e-mail address';

/** The link the shop e-mailed to confirm the rider's address, as the mailbox received it. */
export async function confirmationLink(rider: Rider): Promise<string> {
  const mail = await mailTo(rider.email, confirmationSubject);
  const link = /https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no confirmation link in the e-mail to ${rider.email}`);
  return link;
}

/** Opens the link the shop e-mailed to confirm the rider's address, as a rider does, and goes back to the shop. */
export async function confirmAddress(page: Page, rider: Rider): Promise<void> {
  await page.goto(await confirmationLink(rider));
  await expect(page.getByRole('status')).toHaveText(`Thank you: your e-mail address ${rider.email} is confirmed.`);
  await page.getByRole('link', { name: 'Continue Shopping' }).click();
  await expectHomePage(page);
}

/**
 * Signs a fresh rider up and confirms the address with the e-mailed link's token, by the pages' own requests
 * (`signUp`; POST /api/auth/email-confirmation, as the link's page sends it), then opens the home page: a rider who may
 * order. `confirmAddress` opens the link as a rider does.
 */
export async function signUpConfirmed(page: Page, rider: Rider = newRider()): Promise<Rider> {
  await pageRequest(page, '/api/auth/signup', { email: rider.email, password: rider.password }, 201);
  const token = /#token=([A-Za-z0-9_-]+)/.exec(await confirmationLink(rider))?.[1];
  await pageRequest(page, '/api/auth/email-confirmation', { token }, 200);
  await page.goto('/home');
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

/** A size each product comes in (docs/product.md §12): the one the tests choose unless told. */
export const sizeOf: Readonly<Record<string, string>> = {
  'Anky Bridle': 'Full',
  'Albion SLK Saddle': '17"',
  'Ariat Westchester Boots': '8',
  'Carlson Barn Jacket': 'M',
  'Carlson Tall Boots': '8',
  'Crochet Saddle Blanket': 'Full',
  'Dakota Barn Jacket': 'M',
  'Fellmore Bridle': 'Full',
};

/** A product's card on the home page. */
export const productCard = (page: Page, productName: string) => page.getByRole('article', { name: productName });

/** A cart row's or order line's item as the pages show it: the name and the size. */
export function itemText(productName: string, size = sizeOf[productName]): string {
  return `${productName}, size ${size}`;
}

/** Chooses the product's size on the home page (by default the one `sizeOf` gives). */
export async function chooseSize(page: Page, productName: string, size = sizeOf[productName]): Promise<void> {
  await productCard(page, productName)
    .getByLabel('Size')
    .selectOption(size ?? '');
}

/** Adds a product from the home page, in `size`, and waits for the cart page to show it. */
export async function addToCart(page: Page, productName: string, size = sizeOf[productName]): Promise<void> {
  if (!page.url().endsWith('/home')) await page.goto('/home');
  await chooseSize(page, productName, size);
  await productCard(page, productName)
    .getByRole('button', { name: `Add to cart: ${productName}` })
    .click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(cartTable(page)).toBeVisible();
}

/** A delivery address, by the labels of the checkout form. */
export const deliveryAddress: Readonly<Record<string, string>> = {
  'Full name': 'Ada Rider',
  'Address line 1': '12 Stable Row',
  City: 'Wellington',
  'State or region': 'Florida',
  'Postal code': '33414',
};

export const checkoutForm = (page: Page) => page.getByRole('form', { name: 'Checkout' });

export async function fillAddress(page: Page): Promise<void> {
  for (const [label, value] of Object.entries(deliveryAddress)) {
    const field = checkoutForm(page).getByLabel(label, { exact: true });
    // The state is chosen from the country's subdivisions (ISO 3166-2), by name.
    if (label === 'State or region') await field.selectOption(value);
    else await field.fill(value);
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

/** Runs one of the shop's command lines (npm run owner, stock; as built) on the database of the server under test. */
function shopCommand(name: 'owner' | 'stock', ...args: string[]): void {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set: set it to the database of the shop under test.');
  shopCommandOn(url, name, ...args);
}

/** Runs one of the shop's command lines (as built) on the shop whose database is `databaseUrl`. */
function shopCommandOn(databaseUrl: string, name: 'owner' | 'stock', ...args: string[]): void {
  execFileSync(process.execPath, [`dist-server/${name}-cli.js`, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'pipe',
  });
}

/** Makes the rider an owner with the shop's own command line (npm run owner). */
export function makeOwner(rider: Rider): void {
  shopCommand('owner', 'add', rider.email);
}

/** Makes the rider an owner of the shop whose database is `databaseUrl` (the catalogue shop's, say). */
export function makeOwnerOf(databaseUrl: string, rider: Rider): void {
  shopCommandOn(databaseUrl, 'owner', 'add', rider.email);
}

/** Signs a new rider up (address confirmed) on the test's own shop and makes them its owner. */
export async function signUpOwner(page: Page, shop: FreshShop): Promise<Rider> {
  const owner = await signUpConfirmed(page);
  makeOwnerOf(shop.databaseUrl, owner);
  return owner;
}

/**
 * The tests of a spec that changes what every shop starts with (the catalogue): each test runs on a new shop of its
 * own (`shop`, and `baseURL` is its address), so that it meets the eight products of a new shop however often and in
 * whatever order it runs, and other specs never see its changes. Not when the suite runs against a shop already
 * running (E2E_BASE_URL): a fresh shop needs the suite's mailbox and fake of Stripe.
 */
export const testOnFreshShop = test.extend<{ shop: FreshShop; demoData: DemoCounts | undefined }>({
  /** `testOnFreshShop.use({ demoData })`: the shop filled by `npm run demo-data` before it starts. */
  demoData: [undefined, { option: true }],
  // Its own timeout: starting a shop (a server, a new database, its migrations) is not the test's time. On a loaded
  // machine it took 20 s of a test's 60, and four tests of a `--repeat-each 3` ran out of time for it.
  shop: [
    async ({ demoData }, use, testInfo) => {
      testInfo.skip(
        !!process.env.E2E_BASE_URL,
        'fresh shops need the suite of playwright.config.ts (not E2E_BASE_URL)',
      );
      const shop = await startFreshShop(testInfo.parallelIndex, demoData);
      try {
        await use(shop);
      } finally {
        await shop.stop();
      }
    },
    { timeout: 60_000 },
  ],
  baseURL: async ({ shop }, use) => use(shop.baseURL),
});

/**
 * The third shop of the suite (playwright.config.ts), whose PUBLIC_URL names `localhost`, for the passkey tests; undefined
 * when the suite runs against a shop already running and E2E_PASSKEY_BASE_URL names none.
 */
export function passkeyShop(): string | undefined {
  return process.env.E2E_PASSKEY_BASE_URL;
}

/**
 * Sets a size's stock with the shop's own command line (npm run stock). On SQLite the server hears of it only through
 * the database: pages opened afterwards show it.
 */
export function setStock(productName: string, size: string, count: number): void {
  const product = catalogue.find((p) => p.name === productName);
  if (!product) throw new Error(`no product ${productName}`);
  shopCommand('stock', 'set', product.itemid, size, String(count));
}

/**
 * axe finds no serious or critical violation of WCAG 2.1 A and AA on the page as it is now, once its transitions have
 * ended: axe reads colours as they are on the screen, and a button caught in its 120 ms change of colour (styles.css,
 * when it becomes enabled) has a contrast no rider reads it in (seen once in a fresh clone, on /checkout at 375 px).
 */
export async function expectNoSevereAxeViolation(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(severe).toEqual([]);
}

/**
 * Runs `work` while no other test of this run holds `productName`: the tests that sell a product out take it for
 * themselves, so that the copies of a test (--repeat-each) never sell each other's stock. A directory is the lock:
 * making one is atomic.
 */
export async function withProductToMyself(productName: string, work: () => Promise<void>): Promise<void> {
  const run = createHash('sha256')
    .update(process.env.E2E_DATABASE_URL ?? '')
    .digest('hex')
    .slice(0, 12);
  const lock = join(tmpdir(), `piaffe-e2e-${run}-${productName.replace(/\W/g, '-')}.lock`);
  await expect
    .poll(
      () => {
        try {
          mkdirSync(lock);
          return true;
        } catch {
          return false;
        }
      },
      { message: `${productName} to myself`, timeout: 50_000, intervals: [100] },
    )
    .toBe(true);
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
