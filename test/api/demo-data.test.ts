import { describe, expect, it } from 'vitest';
import { fillingMessage, inUseMessage } from '../../src/server/db/in-use';
import type { ProductPage } from '../../src/shared/finding';
import { Client } from '../support/client';
import { runCommand } from '../support/command-line';
import { startTestServer } from '../support/server';
import { createDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';

/** `npm run demo-data -- ...` (src/server/demo-data-cli.ts) as a child process, on a new shop's database. */
const demoData = (url: string, ...args: string[]) => runCommand('demo-data', url, args, { LOG_LEVEL: 'warn' });

const made =
  /^Made 32 products, 12 riders and 300 orders \(seed 7\) in [\d.]+ s \(products [\d.]+ s, riders [\d.]+ s, orders [\d.]+ s\): the shop has 40 products\.\nEvery rider signs in with the password '(.+)' \((.+@example\.com), say\)\.\n$/;

/** The one number a query of `count(*) as n` answers. */
async function countOf(database: TestDatabase, text: string): Promise<number> {
  const [row] = await database.query<{ n: number | string }>(text);
  return Number(row?.n);
}

describe('npm run demo-data', { timeout: 120_000 }, () => {
  it('fills a new shop through its stores and rules, the same for the same seed, and refuses a shop that is not new', async () => {
    // The two fills on two new databases, side by side: each a process of its own, and its server.
    const fill = async (run: number): Promise<string[]> => {
      let shop: string[] = [];
      const database = await createDatabase();
      try {
        // 300 orders: on PostgreSQL their batch sends more changes than one select's 1,664 NOTIFYs.
        const done = await demoData(
          database.url,
          ...['--products', '40', '--riders', '12', '--orders', '300', '--seed', '7'],
        );
        expect(done).toMatchObject({ code: 0, stderr: '' });
        const [, password, email] = done.stdout.match(made) ?? [];
        expect(password).toBeDefined();

        // The riders are accounts with a confirmed address; the orders are the riders', each with its history.
        expect(
          await countOf(database, `select count(*) as n from "user" where cast("emailVerified" as integer) = 1`),
        ).toBe(12);
        expect(await countOf(database, `select count(*) as n from account where "providerId" = 'credential'`)).toBe(12);
        expect(await countOf(database, 'select count(*) as n from shop_order')).toBe(300);
        expect(
          await countOf(
            database,
            'select count(*) as n from shop_order o where not exists (select 1 from "user" u where u.id = o.uid)',
          ),
        ).toBe(0);
        const statuses = await database.query<{ status: string; n: number | string }>(
          'select status, count(*) as n from shop_order group by status order by status',
        );
        expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(['cancelled', 'shipped']));
        // Stock taken by the orders and never below nothing; every order paid once has its invoice, every such order
        // cancelled its credit note; Florida's orders carry the demo's tax line.
        expect(await countOf(database, 'select count(*) as n from product_size where stock < 0')).toBe(0);
        const invoiced = (kind: string) =>
          `exists (select 1 from invoice i where i.order_number = o.number and i.kind = '${kind}')`;
        const paidOnce = `exists (select 1 from order_event e where e.order_number = o.number and e.status = 'paid')`;
        expect(
          await countOf(
            database,
            `select count(*) as n from shop_order o where ${paidOnce} and not ${invoiced('invoice')}`,
          ),
        ).toBe(0);
        expect(
          await countOf(
            database,
            `select count(*) as n from shop_order o where status = 'cancelled' and ${invoiced('invoice')} and not ${invoiced('credit-note')}`,
          ),
        ).toBe(0);
        expect(await countOf(database, `select count(*) as n from invoice`)).toBeGreaterThan(100);
        const taxed = `money like '%FL sales tax%'`;
        expect(await countOf(database, `select count(*) as n from shop_order where region = 'US-FL'`)).toBeGreaterThan(
          0,
        );
        expect(
          // Florida's riders, and every order collected at the yard in Wellington, Florida (a sale made there).
          await countOf(
            database,
            `select count(*) as n from shop_order where (region = 'US-FL' or delivery = 'collection') <> (${taxed})`,
          ),
        ).toBe(0);
        expect(await countOf(database, `select count(*) as n from outbox`)).toBe(0);
        const [first] = await database.query<{ email: string; total: number | string; placed: number | string }>(
          'select email, total_cents as total, placed_at as placed from shop_order order by number limit 1',
        );
        const [last] = await database.query<{ placed: number | string }>(
          'select placed_at as placed from shop_order order by number desc limit 1',
        );
        // Two years of orders, the oldest first.
        expect(Number(last?.placed) - Number(first?.placed)).toBeGreaterThan(300 * 24 * 3600 * 1000);

        const server = await startTestServer({ DATABASE_URL: database.url });
        try {
          const visitor = new Client(server.url);
          const page = (query: string) =>
            visitor.json('GET', `/api/products?${query}`).then((r) => r.body as ProductPage);
          const all = [...(await page('page=1')).products, ...(await page('page=2')).products];
          expect(all).toHaveLength(40);
          shop = [
            `${first?.email} ${first?.total}`,
            ...all.map((p) => `${p.slug} ${p.priceCents} ${p.sizes.map((s) => s.stock).join(',')}`),
          ];
          expect(all.at(-1)?.sizes).toHaveLength(5);
          // Each in a category, and found by its words: the search index followed every product.
          const categories = await Promise.all(
            ['bridles', 'saddles', 'boots', 'jackets', 'saddle-pads'].map(
              async (c) => (await page(`category=${c}`)).total,
            ),
          );
          expect(categories.reduce((a, b) => a + b)).toBe(40);
          const lastProduct = all.at(-1);
          expect(
            (await page(`q=${encodeURIComponent(lastProduct?.name ?? '')}`)).products.map((p) => p.itemid),
          ).toEqual([lastProduct?.itemid]);

          // A rider of the demo signs in with the password printed, and sees the orders placed in that name.
          const rider = new Client(server.url);
          expect((await rider.login(email as string, password as string)).status).toBe(200);
          const orders = await rider.json('GET', '/api/orders');
          expect(orders.status).toBe(200);
          expect(orders.body.total).toBe(
            await countOf(database, `select count(*) as n from shop_order where email = '${email}'`),
          );
          expect((await new Client(server.url).login(email as string, 'not-the-password')).status).toBe(401);
        } finally {
          await server.stop();
        }
        if (run === 2) {
          expect(await demoData(database.url, '--products', '50')).toEqual({
            code: 1,
            stdout: '',
            stderr:
              'The shop is not new (40 products, 12 accounts, 300 orders): demo data goes into a new shop only.\n',
          });
        }
      } finally {
        await database.drop();
      }
      return shop;
    };
    const shops = await Promise.all([fill(1), fill(2)]);
    expect(shops[0]).toHaveLength(41);
    expect(shops[1]).toEqual(shops[0]);
  });

  it('refuses while a server uses the database, and changes nothing; with the server stopped, it fills the shop', async () => {
    const database = await createDatabase();
    try {
      const server = await startTestServer({ DATABASE_URL: database.url });
      try {
        expect(await demoData(database.url, '--products', '10', '--riders', '0', '--orders', '0')).toEqual({
          code: 1,
          stdout: '',
          stderr: `${inUseMessage}\n`,
        });
        expect(await countOf(database, 'select count(*) as n from product')).toBe(8);
        expect(await countOf(database, 'select count(*) as n from shop_settings where version > 1')).toBe(0);
      } finally {
        await server.stop();
      }
      const filled = await demoData(database.url, '--products', '10', '--riders', '0', '--orders', '0');
      expect(filled).toMatchObject({ code: 0, stderr: '' });
      expect(await countOf(database, 'select count(*) as n from product')).toBe(10);
    } finally {
      await database.drop();
    }
  });

  it('keeps every server out while it fills: none starts, so no sign-up lands in the demo shop', async () => {
    const database = await createDatabase();
    try {
      const running = demoData(database.url, '--products', '400', '--riders', '40', '--orders', '1000');
      // The fill has begun once products beyond the first eight are there: the check is behind it. (Before the
      // command has made the database, or its tables, there is nothing to count.)
      const products = () => countOf(database, 'select count(*) as n from product').catch(() => 0);
      await until(async () => (await products()) > 8, 60_000, 'the fill');
      const started = await startTestServer({ DATABASE_URL: database.url }).then(
        async (server) => {
          await server.stop();
          return 'a server started';
        },
        (error: Error) => error.message,
      );
      expect(started).toBe(fillingMessage);
      expect(await running).toMatchObject({ code: 0, stderr: '' });
      expect(await countOf(database, 'select count(*) as n from "user"')).toBe(40);
      // Done, the shop starts, and its riders sign up beside the demo's.
      const server = await startTestServer({ DATABASE_URL: database.url });
      try {
        await new Client(server.url).signup();
        expect(await countOf(database, 'select count(*) as n from "user"')).toBe(41);
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
  });

  it.runIf(process.env.TEST_BACKEND === 'postgres')(
    'PostgreSQL: a server whose hold was cut (the database restarted, say) takes it again within seconds',
    async () => {
      const database = await createDatabase();
      try {
        // The backends that hold this schema's advisory lock 'piaffe_in_use', shared: the server's one.
        const holders = `select pid from pg_locks where locktype = 'advisory' and objsubid = 2 and mode = 'ShareLock'
          and classid = hashtext('piaffe_in_use')::oid and objid = hashtext(current_schema())::oid`;
        const server = await startTestServer({ DATABASE_URL: database.url });
        try {
          const [holder] = await database.query<{ pid: number }>(holders);
          expect(holder).toBeDefined();
          await database.query('select pg_terminate_backend($1)', [holder?.pid]);
          // pg_terminate_backend only signals the backend: until it has ended, pg_locks still lists its hold. Taken
          // again is held by another backend (the server takes it on a new connection a second later).
          await until(
            async () => {
              const now = await database.query<{ pid: number }>(holders);
              return now.length === 1 && now[0]?.pid !== holder?.pid;
            },
            5000,
            'the hold taken again',
          );
          expect(await demoData(database.url, '--products', '10', '--riders', '0', '--orders', '0')).toMatchObject({
            code: 1,
            stderr: `${inUseMessage}\n`,
          });
        } finally {
          await server.stop();
        }
        // Stopped, the server has let go.
        expect(await database.query(holders)).toEqual([]);
      } finally {
        await database.drop();
      }
    },
  );

  it('says how to use it', async () => {
    const database = await createDatabase();
    try {
      const usage = 'Usage: npm run demo-data -- [--products N] [--riders N] [--orders N] [--seed S]\n';
      // Each a process of its own, side by side: a command used wrongly changes nothing.
      const [noCount, unknown, fewProducts, negativeRiders, manyOrders, noRiders] = await Promise.all([
        demoData(database.url, '--products'),
        demoData(database.url, '--colour', 'bay'),
        demoData(database.url, '--products', '3'),
        demoData(database.url, '--riders', '-1'),
        demoData(database.url, '--orders', 'many'),
        demoData(database.url, '--riders', '0', '--orders', '5'),
      ]);
      expect(noCount).toEqual({ code: 2, stdout: '', stderr: usage });
      expect(unknown).toEqual({ code: 2, stdout: '', stderr: usage });
      expect(fewProducts).toMatchObject({
        code: 2,
        stderr: '--products must be a whole number from 8 to 100,000.\n',
      });
      expect(negativeRiders).toMatchObject({
        code: 2,
        stderr: '--riders must be a whole number from 0 to 1,000,000.\n',
      });
      expect(manyOrders).toMatchObject({
        code: 2,
        stderr: '--orders must be a whole number from 0 to 10,000,000.\n',
      });
      expect(noRiders).toMatchObject({
        code: 2,
        stderr: '--orders needs riders to place them: give --riders 1 or more.\n',
      });
    } finally {
      await database.drop();
    }
  });
});
