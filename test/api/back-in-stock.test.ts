import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMail } from '../../scripts/mailbox';
import { createRoles } from '../../src/server/auth/roles';
import type { StockAlert } from '../../src/shared/api';
import { limits } from '../../src/shared/limits';
import type { AdminProduct } from '../../src/shared/products';
import { Client, confirmedRider } from '../support/client';
import { runCommand } from '../support/command-line';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';
import { serverOnOwnDatabase } from '../support/test-database';
import { until } from '../support/until';
import { setOpenTo } from '../support/visitors';

/** Back in stock (docs/product.md §27, docs/decisions/0058-back-in-stock.md), on the backend under test. */
let server: TestServer;
let owner: Client;
beforeAll(async () => {
  server = await startTestServer({ MAIL_RETRY_DELAYS: '1,1,1' });
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
});
afterAll(async () => {
  await server?.stop();
});

const rider = () => confirmedRider(server.url);

const ask = (client: Client, itemid: string, size: string) =>
  client.json('POST', '/api/account/stock-alerts', { itemid, size });
const alertsOf = async (client: Client): Promise<StockAlert[]> =>
  (await client.json('GET', '/api/account/stock-alerts')).body.alerts;

/** A product of its own, shown, in sizes S, M, L with the given stock: no other test touches it. */
async function ownProduct(stock: { S: number; M: number; L: number }): Promise<AdminProduct> {
  const sizes = Object.entries(stock).map(([size, count]) => ({ size, stock: count }));
  const body = { name: `Numnah ${Math.random().toString(36).slice(2, 8)}`, details: '', priceCents: 4500, shown: true };
  const reply = await owner.json('POST', '/api/admin/products', { ...body, sizes });
  expect(reply.status).toBe(201);
  return reply.body.product;
}

async function adminProduct(itemid: string): Promise<{ product: AdminProduct; waiting: Record<string, number> }> {
  return (await owner.json('GET', `/api/admin/products/${itemid}`)).body;
}

/** The owner's form for the product as it is now, with `stock` for the sizes named. */
async function saveStock(itemid: string, stock: Record<string, number>, changes: Record<string, unknown> = {}) {
  const { product } = await adminProduct(itemid);
  const sizes = product.sizes.map((s) => ({ size: s.size, stock: stock[s.size] ?? s.stock, stockShown: s.stock }));
  const { name, details, priceCents, shown, version } = product;
  const body = { name, details, priceCents, shown, version, sizes, ...changes };
  const reply = await owner.json('PUT', `/api/admin/products/${itemid}`, body);
  expect(reply.status).toBe(200);
}

/** The back-in-stock e-mails written to the outbox for the product, oldest first: what riders get, one row each. */
async function emailsFor(product: { name: string }): Promise<{ recipient: string; subject: string }[]> {
  return server.db.kysely
    .selectFrom('outbox')
    .select(['recipient', 'subject', 'text_body'])
    .where('kind', '=', 'back-in-stock')
    .where('subject', 'like', `${product.name},%`)
    .orderBy('created_at')
    .execute();
}

/** The e-mails about the product that reached the mailbox over SMTP. */
const arrived = (product: { name: string }): ReceivedMail[] =>
  server.mailbox?.mails.filter((m) => m.parsed.subject?.startsWith(`${product.name},`)) ?? [];

describe('a rider waits for a size out of stock', () => {
  it('asks once: a second press is the same alert; the account lists it with the product, the size and since when', async () => {
    const product = await ownProduct({ S: 0, M: 3, L: 0 });
    const client = await rider();
    const first = await ask(client, product.itemid, 'S');
    expect(first.status).toBe(201);
    expect(first.body.alert).toMatchObject({ itemid: product.itemid, product: product.name, size: 'S' });
    const again = await ask(client, product.itemid, 'S');
    expect(again.status).toBe(200);
    expect(again.body.alert).toEqual(first.body.alert);
    const alerts = await alertsOf(client);
    expect(alerts).toEqual([first.body.alert]);
    expect(Date.parse(alerts[0]?.since ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await adminProduct(product.itemid)).waiting).toEqual({ S: 1 });
  });

  it('refuses a size in stock, one the product lacks, a hidden product, and a visitor even of an open shop', async () => {
    const product = await ownProduct({ S: 0, M: 3, L: 0 });
    const client = await rider();
    expectError(await ask(client, product.itemid, 'M'), 409, 'stock-alert/in-stock');
    expectError(await ask(client, product.itemid, 'XL'), 400, 'stock-alert/unknown-size');
    expectError(await ask(client, '99999', 'S'), 404, 'stock-alert/unknown-product');
    expectError(
      await client.json('POST', '/api/account/stock-alerts', { itemid: product.itemid }),
      400,
      'request/invalid-body',
    );
    await setOpenTo(owner, 'everyone');
    try {
      expectError(await ask(new Client(server.url), product.itemid, 'S'), 401, 'auth/unauthenticated');
    } finally {
      await setOpenTo(owner, 'members');
    }
    await saveStock(product.itemid, {}, { shown: false });
    expectError(await ask(client, product.itemid, 'S'), 404, 'stock-alert/unknown-product');
    expect(await alertsOf(client)).toEqual([]);
  });

  it(`holds at most ${limits.stockAlertsMax} open alerts a rider; cancelling one makes room`, async () => {
    const client = await rider();
    const asked: StockAlert[] = [];
    while (asked.length < limits.stockAlertsMax) {
      const product = await ownProduct({ S: 0, M: 0, L: 0 });
      for (const size of ['S', 'M', 'L']) {
        if (asked.length === limits.stockAlertsMax) {
          expectError(await ask(client, product.itemid, size), 409, 'stock-alert/too-many');
          break;
        }
        asked.push((await ask(client, product.itemid, size)).body.alert);
      }
    }
    const extra = await ownProduct({ S: 0, M: 0, L: 0 });
    expectError(await ask(client, extra.itemid, 'S'), 409, 'stock-alert/too-many');
    // Asking again for one already held is no new alert, so the limit does not refuse it.
    expect((await ask(client, asked[0]?.itemid ?? '', 'S')).status).toBe(200);
    const other = await rider();
    expectError(await other.json('DELETE', `/api/account/stock-alerts/${asked[0]?.id}`), 404, 'stock-alert/not-found');
    expect((await client.json('DELETE', `/api/account/stock-alerts/${asked[0]?.id}`)).status).toBe(204);
    expectError(await client.json('DELETE', `/api/account/stock-alerts/${asked[0]?.id}`), 404, 'stock-alert/not-found');
    expect((await ask(client, extra.itemid, 'S')).status).toBe(201);
    expect(await alertsOf(client)).toHaveLength(limits.stockAlertsMax);
  });
});

describe('the stock rises: one e-mail per wait, through the outbox', () => {
  it("the owner's form: every waiting rider once, in the order they asked, with the product's link; deleted riders none", async () => {
    const product = await ownProduct({ S: 0, M: 0, L: 2 });
    const riders = [await rider(), await rider(), await rider(), await rider()];
    for (const client of riders) {
      expect((await ask(client, product.itemid, 'S')).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [, gone] = riders;
    await ask(gone as Client, product.itemid, 'M');
    // The account is deleted: its waits go with it.
    const recent = await gone?.login(gone.user?.email ?? '', 'secret1');
    expect(recent?.status).toBe(200);
    expect((await gone?.json('DELETE', '/api/account'))?.status).toBe(204);
    expect((await adminProduct(product.itemid)).waiting).toEqual({ S: 3 });

    await saveStock(product.itemid, { S: 4, M: 1 });
    const expected = riders.filter((r) => r !== gone).map((r) => r.user?.email);
    const written = await emailsFor(product);
    expect(written.map((e) => e.recipient)).toEqual(expected);
    expect(new Set(written.map((e) => e.subject))).toEqual(new Set([`${product.name}, size S, is back`]));
    for (const client of riders) if (client !== gone) expect(await alertsOf(client)).toEqual([]);
    expect((await adminProduct(product.itemid)).waiting).toEqual({});

    await until(() => arrived(product).length === 3, 10_000, 'three e-mails');
    const { slug } = await server.db.kysely
      .selectFrom('product')
      .select('slug')
      .where('itemid', '=', product.itemid)
      .executeTakeFirstOrThrow();
    // The link is PUBLIC_URL's (the test server's default, http://localhost:0) and the product page's path.
    expect(arrived(product)[0]?.parsed.text).toContain(`See the product: http://localhost:0/products/${slug}\n`);
    // Saved again with more: no wait is open, so no e-mail.
    await saveStock(product.itemid, { S: 9 });
    expect(await emailsFor(product)).toHaveLength(3);
  });

  it("a cancelled order's units, and the owner's command line's store, end the waits too", async () => {
    const product = await ownProduct({ S: 1, M: 0, L: 0 });
    const buyer = await rider();
    await buyer.add(product.itemid, 'S');
    const placed = await buyer.placeOrder();
    expect(placed.status).toBe(201);
    const waiting = await rider();
    await ask(waiting, product.itemid, 'S');
    await ask(waiting, product.itemid, 'M');
    const cancelled = await buyer.json('POST', `/api/orders/${placed.body.order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await emailsFor(product)).map((e) => e.subject)).toEqual([`${product.name}, size S, is back`]);
    expect((await alertsOf(waiting)).map((a) => a.size)).toEqual(['M']);
    // `npm run stock -- set`'s own call (stock-cli.ts), on this server's database.
    await server.stock.set(2, { itemid: product.itemid, size: 'M' });
    expect((await emailsFor(product)).map((e) => e.subject)).toEqual([
      `${product.name}, size S, is back`,
      `${product.name}, size M, is back`,
    ]);
    expect(await alertsOf(waiting)).toEqual([]);
  });

  it('raised, lowered and raised again within a second: one e-mail a wait', async () => {
    const product = await ownProduct({ S: 0, M: 0, L: 0 });
    const riders = [await rider(), await rider()];
    for (const client of riders) await ask(client, product.itemid, 'L');
    await server.stock.set(1, { itemid: product.itemid, size: 'L' });
    await server.stock.set(0, { itemid: product.itemid, size: 'L' });
    await server.stock.set(3, { itemid: product.itemid, size: 'L' });
    expect(await emailsFor(product)).toHaveLength(2);
    // A rider asking while it was out again waits anew, and gets one e-mail of their own.
    await server.stock.set(0, { itemid: product.itemid, size: 'L' });
    await ask(riders[0] as Client, product.itemid, 'L');
    await server.stock.set(1, { itemid: product.itemid, size: 'L' });
    await server.stock.set(2, { itemid: product.itemid, size: 'L' });
    expect(await emailsFor(product)).toHaveLength(3);
  });

  it('a hidden product, or a size removed, ends its waits without an e-mail; a renamed size keeps them', async () => {
    const product = await ownProduct({ S: 0, M: 0, L: 0 });
    const client = await rider();
    for (const size of ['S', 'M', 'L']) await ask(client, product.itemid, size);
    // S removed, M renamed to Medium.
    const { product: now } = await adminProduct(product.itemid);
    const sizes = [
      { size: 'Medium', was: 'M', stock: 0, stockShown: 0 },
      { size: 'L', stock: 0, stockShown: 0 },
    ];
    const { name, details, priceCents, shown, version } = now;
    const saved = await owner.json('PUT', `/api/admin/products/${product.itemid}`, {
      name,
      details,
      priceCents,
      shown,
      version,
      sizes,
    });
    expect(saved.status).toBe(200);
    expect((await alertsOf(client)).map((a) => a.size)).toEqual(['Medium', 'L']);
    await saveStock(product.itemid, {}, { shown: false });
    expect(await alertsOf(client)).toEqual([]);
    await saveStock(product.itemid, { Medium: 5, L: 5 }, { shown: true });
    expect(await emailsFor(product)).toEqual([]);
  });

  it('an e-mail the mail server refuses at first is retried, and arrives once', async () => {
    const product = await ownProduct({ S: 0, M: 0, L: 0 });
    const client = await rider();
    await ask(client, product.itemid, 'S');
    const mailbox = server.mailbox as NonNullable<TestServer['mailbox']>;
    mailbox.refuseWith = { code: 451, message: 'Try again later' };
    await server.stock.set(1, { itemid: product.itemid, size: 'S' });
    await until(
      async () =>
        Number(
          (
            await server.db.kysely
              .selectFrom('outbox')
              .select('attempts')
              .where('subject', '=', `${product.name}, size S, is back`)
              .executeTakeFirst()
          )?.attempts,
        ) >= 1,
      10_000,
      'a refused try',
    );
    mailbox.refuseWith = undefined;
    await until(() => arrived(product).length === 1, 10_000, 'the e-mail');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrived(product)).toHaveLength(1);
    expect(await emailsFor(product)).toHaveLength(1);
  });
});

describe('two raises of one size at once', () => {
  it.each([1, 2, 3])(
    "round %i: the owner's form and the command line's store raise it together: exactly one e-mail a wait",
    async () => {
      const product = await ownProduct({ S: 0, M: 0, L: 0 });
      const riders = await Promise.all(Array.from({ length: 10 }, () => rider()));
      for (const client of riders) expect((await ask(client, product.itemid, 'M')).status).toBe(201);
      await Promise.all([
        saveStock(product.itemid, { M: 4 }),
        server.stock.set(2, { itemid: product.itemid, size: 'M' }),
        server.stock.set(3, { itemid: product.itemid, size: 'M' }),
        server.stock.set(5, { itemid: product.itemid }),
      ]);
      const written = await emailsFor(product);
      expect(written).toHaveLength(10);
      expect(new Set(written.map((e) => e.recipient)).size).toBe(10);
    },
  );
});

describe('two processes raise one size at once: the server and `npm run stock`', { timeout: 90_000 }, () => {
  const shop = serverOnOwnDatabase();

  it('each wait gives one e-mail, whichever commits first; on SQLite the second waits for the file', async () => {
    const admin = new Client(shop.server.url);
    const { email } = await admin.signupConfirmed();
    await createRoles(shop.server.db).grant(email);
    const name = `Numnah ${Math.random().toString(36).slice(2, 8)}`;
    const body = { name, details: '', priceCents: 4500, shown: true, sizes: [{ size: 'M', stock: 0 }] };
    const { itemid } = (await admin.json('POST', '/api/admin/products', body)).body.product;
    const riders = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = await confirmedRider(shop.server.url);
        expect((await ask(client, itemid, 'M')).status).toBe(201);
        return client;
      }),
    );
    // The command line's process starts, then writes; the server raises the size over and over meanwhile.
    let done = false;
    const command = runCommand('stock', shop.database.url, ['set', itemid, 'M', '5'], { LOG_LEVEL: 'warn' }).finally(
      () => {
        done = true;
      },
    );
    let raises = 0;
    while (!done) {
      await shop.server.stock.set(1 + (raises++ % 3), { itemid, size: 'M' });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await command).toEqual({ code: 0, stdout: 'Set 1 size to 5 in stock.\n', stderr: '' });
    const written = await shop.database.query<{ recipient: string }>(
      "select recipient from outbox where kind = 'back-in-stock' and subject = $1",
      [`${name}, size M, is back`],
    );
    expect(written.map((w) => w.recipient).sort()).toEqual(riders.map((r) => r.user?.email).sort());
    expect(await shop.database.query('select id from stock_wait')).toEqual([]);
  });
});
