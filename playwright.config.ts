import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium';
import { fakeStripeKey, fakeWebhookSecret } from './test/support/fake-stripe';

// E2E_BASE_URL points the suite at a shop that is already running (e.g. on PostgreSQL), and E2E_MAILBOX_URL at
// the mailbox it sends to (scripts/mailbox-server.ts); otherwise the suite starts the built server and app
// (`npm run build`) on a fresh SQLite file, with deep stock of every size, sending its e-mails to a mailbox of its own.
const externalBaseUrl = process.env.E2E_BASE_URL;
const port = Number(process.env.E2E_PORT ?? 3100);
const mailbox = { smtp: port + 25, web: port + 26 };
// Card payments go to a fake of Stripe's API (scripts/fake-stripe-server.ts), which plays Stripe's page too.
const fakeStripePort = port + 27;
process.env.E2E_MAILBOX_URL ??= `http://127.0.0.1:${mailbox.web}`;
// Set once, in the main process; the workers inherit it (the back-office tests make an owner with npm run owner).
process.env.E2E_DATABASE_URL ??= `file:${join(tmpdir(), `piaffe-e2e-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
// A second shop, on a database of its own, for the tests that change the catalogue (e2e/owners-catalogue.spec.ts):
// every other test, home.spec.ts first, may count on the eight products of a new shop. E2E_CATALOGUE_BASE_URL points
// those tests at one already running (with E2E_CATALOGUE_DATABASE_URL, its database, for npm run owner).
const cataloguePort = port + 28;
process.env.E2E_CATALOGUE_DATABASE_URL ??= `file:${join(tmpdir(), `piaffe-e2e-catalogue-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
if (!externalBaseUrl) process.env.E2E_CATALOGUE_BASE_URL ??= `http://127.0.0.1:${cataloguePort}`;
// A third shop whose PUBLIC_URL names `localhost`, for the passkey tests (e2e/passkeys.spec.ts): a passkey is bound to a
// host name, never to an IP address. E2E_PASSKEY_BASE_URL points those tests at one already running.
const passkeyPort = port + 29;
const passkeyDatabaseUrl = `file:${join(tmpdir(), `piaffe-e2e-passkeys-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
if (!externalBaseUrl) process.env.E2E_PASSKEY_BASE_URL ??= `http://localhost:${passkeyPort}`;

// A fourth shop as the README's first run starts it, for e2e/first-run.spec.ts: no SMTP_URL, no PUBLIC_URL (so
// http://localhost:<port>), no Stripe. It says where its local mailbox is in its log, which it writes to
// E2E_FIRST_RUN_LOG for the test to read, as a new user reads the terminal. E2E_FIRST_RUN_BASE_URL is its address.
const firstRunPort = port + 1;
const firstRunDatabaseUrl = `file:${join(tmpdir(), `piaffe-e2e-first-run-${randomBytes(6).toString('hex')}`, 'shop.db')}`;
process.env.E2E_FIRST_RUN_LOG ??= join(tmpdir(), `piaffe-e2e-first-run-${randomBytes(6).toString('hex')}.log`);
if (!externalBaseUrl) process.env.E2E_FIRST_RUN_BASE_URL ??= `http://localhost:${firstRunPort}`;

/**
 * A shop as the suite starts it: the built server on a fresh SQLite file, with deep stock of every size, its PUBLIC_URL
 * on `host`.
 */
function shopServer(shopPort: number, databaseUrl: string, host = '127.0.0.1') {
  return {
    // Deep stock first (npm run stock), so that no test runs out of a size another test ordered.
    command: 'node dist-server/stock-cli.js set all all 100000 && node --enable-source-maps dist-server/main.js',
    url: `http://127.0.0.1:${shopPort}/healthz`,
    env: {
      PORT: String(shopPort),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: '1',
      SMTP_URL: `smtp://127.0.0.1:${mailbox.smtp}`,
      MAIL_FROM: 'Piaffe <shop@piaffe.test>',
      // Stripe's page sends the rider back to PUBLIC_URL: the origin the browser tests use.
      PUBLIC_URL: `http://${host}:${shopPort}`,
      STRIPE_API_URL: `http://127.0.0.1:${fakeStripePort}`,
      STRIPE_SECRET_KEY: fakeStripeKey,
      STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
    },
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: 'e2e',
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
    baseURL: externalBaseUrl ?? `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: externalBaseUrl
    ? undefined
    : [
        {
          command: 'node --import tsx scripts/mailbox-server.ts',
          url: `${process.env.E2E_MAILBOX_URL}/mails.json`,
          env: { MAILBOX_SMTP_PORT: String(mailbox.smtp), MAILBOX_WEB_PORT: String(mailbox.web) },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          command: 'node --import tsx scripts/fake-stripe-server.ts',
          url: `http://127.0.0.1:${fakeStripePort}/healthz`,
          env: {
            FAKE_STRIPE_PORT: String(fakeStripePort),
            FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${port}/api/payments/stripe/webhook`,
            FAKE_STRIPE_WEBHOOK_DELAY_MS: '1500',
          },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        shopServer(port, process.env.E2E_DATABASE_URL),
        shopServer(cataloguePort, process.env.E2E_CATALOGUE_DATABASE_URL),
        shopServer(passkeyPort, passkeyDatabaseUrl, 'localhost'),
        {
          // Deep stock, as in every shop of the suite, so that the test may run any number of times.
          command: `node dist-server/stock-cli.js set all all 100000 && node --enable-source-maps dist-server/main.js > "${process.env.E2E_FIRST_RUN_LOG}"`,
          url: `http://127.0.0.1:${firstRunPort}/healthz`,
          // The test's riders each come from an address of their own (X-Forwarded-For), as in the other shops.
          env: { PORT: String(firstRunPort), HOST: '127.0.0.1', DATABASE_URL: firstRunDatabaseUrl, TRUST_PROXY: '1' },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore' as const,
          stderr: 'pipe' as const,
        },
      ],
});
