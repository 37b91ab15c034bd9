import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { testBrowserLaunchOptions } from './e2e/chromium';
import { deepStockCommand, ports, shopEnv } from './e2e/shops';

// E2E_BASE_URL points the suite at a shop that is already running (e.g. on PostgreSQL), and E2E_MAILBOX_URL at
// the mailbox it sends to (scripts/mailbox-server.ts); otherwise the suite starts the built server and app
// (`npm run build`) on a fresh SQLite file, with deep stock of every size, sending its e-mails to a mailbox of its own.
// Its ports come from E2E_PORT (e2e/shops.ts). Tests that change what every shop starts with (the catalogue) each
// start a new shop of their own (`testOnFreshShop`, e2e/support.ts), so that every other test may count on the eight
// products of a new shop, and they on theirs.
const externalBaseUrl = process.env.E2E_BASE_URL;
process.env.E2E_MAILBOX_URL ??= `http://127.0.0.1:${ports.mailbox.web}`;
// Set once, in the main process; the workers inherit it (the back-office tests make an owner with npm run owner).
process.env.E2E_DATABASE_URL ??= `file:${join(tmpdir(), `piaffe-e2e-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
// The database every fresh shop of a test starts as (`testOnFreshShop`): made once by e2e/global-setup.ts, copied for
// each test (e2e/shops.ts, `freshShopTemplate`).
process.env.E2E_FRESH_SHOP_TEMPLATE ??= join(
  tmpdir(),
  `piaffe-e2e-template-${randomBytes(6).toString('hex')}`,
  'shop.db',
);
// A shop whose PUBLIC_URL names `localhost`, for the passkey tests (e2e/passkeys.spec.ts): a passkey is bound to a
// host name, never to an IP address. E2E_PASSKEY_BASE_URL points those tests at one already running.
const passkeyDatabaseUrl = `file:${join(tmpdir(), `piaffe-e2e-passkeys-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
if (!externalBaseUrl) process.env.E2E_PASSKEY_BASE_URL ??= `http://localhost:${ports.passkeyShop}`;
// A shop as the README's first run starts it, for e2e/first-run.spec.ts: no SMTP_URL, no PUBLIC_URL (so
// http://localhost:<port>), no Stripe. It says where its local mailbox is in its log, which it writes to
// E2E_FIRST_RUN_LOG for the test to read, as a new user reads the terminal. E2E_FIRST_RUN_BASE_URL is its address.
const firstRunDatabaseUrl = `file:${join(tmpdir(), `piaffe-e2e-first-run-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
process.env.E2E_FIRST_RUN_LOG ??= join(tmpdir(), `piaffe-e2e-first-run-${randomBytes(6).toString('hex')}.log`);
if (!externalBaseUrl) process.env.E2E_FIRST_RUN_BASE_URL ??= `http://localhost:${ports.firstRun}`;

/** A shop as the suite starts it: the built server on a fresh SQLite file, with deep stock of every size. */
function shopServer(shopPort: number, databaseUrl: string, host = '127.0.0.1') {
  return {
    command: `${deepStockCommand} && node --enable-source-maps dist-server/main.js`,
    url: `http://127.0.0.1:${shopPort}/healthz`,
    env: shopEnv(shopPort, databaseUrl, host),
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  // On two cores with two Chromium workers, the longest tests (three browser contexts, several log-ins and e-mails)
  // took up to 32 s in a fresh clone on 2026-11-25 (3.2 min for the suite before, 9 min now, the same for the code
  // before and after that day's changes): the bound is twice that, so only a hang fails by time.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: externalBaseUrl ?? `http://127.0.0.1:${ports.shop}`,
    // A trace of every test costs its screenshots and snapshots even when the test passes (18–29% of a run of four
    // specs, bench/README.md "The test suite's time") and CI keeps none: E2E_TRACE=1 records them, kept for the tests
    // that fail, when a failure is to be looked into (`npx playwright show-trace`).
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: testBrowserLaunchOptions,
  },
  webServer: externalBaseUrl
    ? undefined
    : [
        {
          command: 'node --import tsx scripts/mailbox-server.ts',
          url: `${process.env.E2E_MAILBOX_URL}/mails.json`,
          env: { MAILBOX_SMTP_PORT: String(ports.mailbox.smtp), MAILBOX_WEB_PORT: String(ports.mailbox.web) },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          command: 'node --import tsx scripts/fake-stripe-server.ts',
          url: `http://127.0.0.1:${ports.fakeStripe}/healthz`,
          env: {
            FAKE_STRIPE_PORT: String(ports.fakeStripe),
            FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${ports.shop}/api/payments/stripe/webhook`,
            // The rider is back at the shop before the payment's webhook, as with Stripe. A test that must see the
            // page before it holds the webhook back until it lets it go (card-payments.spec.ts), whatever the pace.
            FAKE_STRIPE_WEBHOOK_DELAY_MS: '1500',
          },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        shopServer(ports.shop, process.env.E2E_DATABASE_URL),
        shopServer(ports.passkeyShop, passkeyDatabaseUrl, 'localhost'),
        {
          // Deep stock, as in every shop of the suite, so that the test may run any number of times.
          command: `${deepStockCommand} && node --enable-source-maps dist-server/main.js > "${process.env.E2E_FIRST_RUN_LOG}"`,
          url: `http://127.0.0.1:${ports.firstRun}/healthz`,
          // The test's riders each come from an address of their own (X-Forwarded-For), as in the other shops.
          env: { PORT: String(ports.firstRun), HOST: '127.0.0.1', DATABASE_URL: firstRunDatabaseUrl, TRUST_PROXY: '1' },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore' as const,
          stderr: 'pipe' as const,
        },
      ],
});
