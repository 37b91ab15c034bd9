import { readFileSync } from 'node:fs';
import {
  addToCart,
  confirmationSubject,
  expect,
  expectHomePage,
  itemText,
  pageOnAnotherDevice,
  placeOrder,
  signUpThroughForm,
  test,
} from './support';

/**
 * The README's first run: `npm start` with no settings (no SMTP_URL, PUBLIC_URL on localhost), and a rider goes from
 * sign-up to a placed order, confirming the address from the local mailbox the server names at start
 * (docs/decisions/0031-a-local-mailbox.md).
 */
const baseURL = process.env.E2E_FIRST_RUN_BASE_URL;
test.skip(!baseURL, 'needs the first-run shop of playwright.config.ts');

/** The local mailbox's address, from the line the server wrote at start. */
async function mailboxUrl(): Promise<string> {
  let url: string | undefined;
  await expect
    .poll(
      () => {
        const lines = readFileSync(process.env.E2E_FIRST_RUN_LOG ?? '', 'utf8')
          .split('\n')
          .filter(Boolean);
        const said = lines
          .map((line) => JSON.parse(line) as { msg: string })
          .find((l) => l.msg.includes('read them at'));
        url = /read them at (\S+)$/.exec(said?.msg ?? '')?.[1];
        return url !== undefined;
      },
      { message: 'the line that names the local mailbox' },
    )
    .toBe(true);
  return url as string;
}

test('a rider signs up, confirms the address from the local mailbox and places an order', async ({ browser }) => {
  const page = await pageOnAnotherDevice(browser, baseURL);
  const rider = await signUpThroughForm(page);

  await page.goto(await mailboxUrl());
  await expect(page.getByRole('heading', { level: 1, name: 'Piaffe mailbox' })).toBeVisible();
  await page
    .getByRole('row', { name: new RegExp(rider.email) })
    .getByRole('link', { name: confirmationSubject })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: confirmationSubject })).toBeVisible();
  await page.getByRole('link', { name: /\/confirm-email#token=/ }).click();
  await expect(page.getByRole('status')).toHaveText(`Thank you: your e-mail address ${rider.email} is confirmed.`);
  await page.getByRole('link', { name: 'Continue Shopping' }).click();
  await expectHomePage(page);

  await addToCart(page, 'Anky Bridle');
  await expect(page.getByRole('table', { name: 'Your cart' })).toContainText(itemText('Anky Bridle'));
  const number = await placeOrder(page);

  // The order's confirmation reaches the mailbox too.
  await page.goto(await mailboxUrl());
  await expect(
    page.getByRole('row', { name: new RegExp(rider.email) }).getByRole('link', { name: `Your order ${number}` }),
  ).toBeVisible();
  await page.context().close();
});
