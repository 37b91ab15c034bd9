import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fakeStripeKey, fakeWebhookSecret } from '../test/support/fake-stripe';

/**
 * The ports of the browser tests, from E2E_PORT (3100 unless set; each engineer's suite has its own 30): the shop on
 * E2E_PORT itself, the first-run shop on +1, fresh shops (one per test, `startFreshShop`) on +2 to +24, the mailbox on
 * +25 (SMTP) and +26 (web), the fake of Stripe on +27, the passkey shop on +29 (+28 is free).
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 3100);
export const ports = {
  shop: e2ePort,
  firstRun: e2ePort + 1,
  freshShops: { first: e2ePort + 2, last: e2ePort + 24 },
  mailbox: { smtp: e2ePort + 25, web: e2ePort + 26 },
  fakeStripe: e2ePort + 27,
  passkeyShop: e2ePort + 29,
};

/**
 * The settings of a shop as the suite starts it, on `shopPort` and the SQLite file `databaseUrl`: e-mails to the
 * suite's mailbox, cards through the fake of Stripe, riders told apart by X-Forwarded-For, PUBLIC_URL on `host`, the
 * tests' password hashing cost.
 */
export function shopEnv(shopPort: number, databaseUrl: string, host = '127.0.0.1'): Record<string, string> {
  return {
    PORT: String(shopPort),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: '1',
    SMTP_URL: `smtp://127.0.0.1:${ports.mailbox.smtp}`,
    MAIL_FROM: 'Piaffe <shop@piaffe.test>',
    // Stripe's page sends the rider back to PUBLIC_URL: the origin the browser tests use.
    PUBLIC_URL: `http://${host}:${shopPort}`,
    STRIPE_API_URL: `http://127.0.0.1:${ports.fakeStripe}`,
    STRIPE_SECRET_KEY: fakeStripeKey,
    STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
    // Scrypt at N 1024 instead of 16384 for the suite's many sign-ups and log-ins; only a test on this machine may
    // (docs/decisions/0056-password-hashing-cost-in-tests.md).
    PASSWORD_HASH_COST: '1024',
    PIAFFE_TEST: '1',
  };
}

/** Deep stock of every size, so that no test runs out of a size another test ordered (npm run stock, as built). */
export const deepStockCommand = 'node dist-server/stock-cli.js set all all 100000';

export interface FreshShop {
  baseURL: string;
  /** Its SQLite file, for the shop's command lines (npm run owner). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** How many products, riders and orders `npm run demo-data` makes in a new shop. */
export interface DemoCounts {
  products: number;
  riders: number;
  orders: number;
}

/**
 * The new shop every fresh shop starts as: a SQLite file migrated and given deep stock by `npm run stock` (as built),
 * made once for the run by the global set-up (e2e/global-setup.ts, `makeFreshShopTemplate`) at the path
 * playwright.config.ts puts in E2E_FRESH_SHOP_TEMPLATE, and copied for each test: the same file a test's own
 * migrations and stock command would make, without a migration and a command line for every test.
 */
export function freshShopTemplate(): string {
  const file = process.env.E2E_FRESH_SHOP_TEMPLATE;
  if (!file) throw new Error('E2E_FRESH_SHOP_TEMPLATE is not set: run the suite through playwright.config.ts.');
  return file;
}

/** Makes the fresh shops' template (`freshShopTemplate`): a new database, migrated, with deep stock of every size. */
export function makeFreshShopTemplate(): void {
  const file = freshShopTemplate();
  rmSync(dirname(file), { recursive: true, force: true });
  mkdirSync(dirname(file), { recursive: true });
  execFileSync('sh', ['-c', deepStockCommand], {
    env: { ...process.env, ...shopEnv(ports.freshShops.first, `file:${file}`) },
    stdio: 'pipe',
  });
  // The command line closed the database, so SQLite folded its WAL into the file: the file alone is the shop.
  if (existsSync(`${file}-wal`)) throw new Error(`the fresh shops' template ${file} still has a WAL beside it`);
}

/**
 * A new shop for one test (the built server on a SQLite file of its own, with deep stock, sending to the suite's
 * mailbox), on the fresh-shop port of the worker's `parallelIndex`: a worker runs one test at a time, so two fresh
 * shops never share a port. Its database is a copy of the template (`freshShopTemplate`). With `demoData`, a new
 * database filled by `npm run demo-data` first, then given deep stock, as before: the fill refuses a database a server
 * uses (docs/decisions/0050-a-fill-alone.md). Resolves once the shop listens.
 */
export async function startFreshShop(parallelIndex: number, demoData?: DemoCounts): Promise<FreshShop> {
  const port = ports.freshShops.first + parallelIndex;
  if (port > ports.freshShops.last) throw new Error(`no fresh-shop port left for worker ${parallelIndex}`);
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-e2e-fresh-'));
  const databaseUrl = `file:${join(dir, 'shop.db')}`;
  const env = { ...process.env, ...shopEnv(port, databaseUrl) };
  if (demoData) {
    const counts = Object.entries(demoData).flatMap(([name, count]) => [`--${name}`, String(count)]);
    execFileSync(process.execPath, ['dist-server/demo-data-cli.js', ...counts], { env, stdio: 'pipe' });
    execFileSync('sh', ['-c', deepStockCommand], { env, stdio: 'pipe' });
  } else copyFileSync(freshShopTemplate(), join(dir, 'shop.db'));
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist-server/main.js'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((listening, failed) => {
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        if (line.includes('"msg":"listening"')) listening();
      });
      void exited.then(() => failed(new Error(`the fresh shop on port ${port} exited before listening: ${stderr}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL: `http://127.0.0.1:${port}`, databaseUrl, stop };
}
