import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { payByOf } from '../../src/server/payments/transfer-sweep';
import { formatCents } from '../../src/shared/money';
import type { Order } from '../../src/shared/orders';
import { lastDayToPay } from '../../src/shared/payment/bank-transfer';
import type { ShopSettings, VersionedSettings } from '../../src/shared/settings';
import { Client, confirmedRider, sizeOf } from '../support/client';
import { createDiscount, listed, placeWith, quoteWith } from '../support/discounts';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';
import { shopWithOwner } from '../support/shop-with-owner';
import { createDatabase, type TestDatabase, undoUnpaidBankTransfers } from '../support/test-database';
import { age, dayMs, mailsAbout, movesTo } from '../support/unpaid-transfers';

/**
 * Unpaid bank-transfer orders (docs/product.md §8, docs/decisions/0049-unpaid-bank-transfers.md): one reminder after
 * the days to pay, a cancel by the shop as many days after it, each once. Time moves for the orders of a test alone
 * (`age`), and the test runs the server's own sweep, as its housekeeping does every five minutes.
 */
// One shop and its owner for the file's tests (test/support/shop-with-owner.ts).
const shop = shopWithOwner();
let server: TestServer;
let owner: Client;
beforeAll(() => {
  ({ server, owner } = shop);
});

const rider = () => confirmedRider(server.url);

async function orderOf(client: Client, number: string): Promise<Order> {
  const reply = await client.json('GET', `/api/orders/${number}`);
  expect(reply.status).toBe(200);
  return reply.body.order;
}

async function stockOf(itemid: string): Promise<number> {
  const row = await server.db.kysely
    .selectFrom('product_size')
    .select('stock')
    .where('itemid', '=', itemid)
    .where('size', '=', sizeOf(itemid))
    .executeTakeFirstOrThrow();
  return Number(row.stock);
}

/** The owner's settings form, saved with `change` made to its bank transfer section. */
async function saveBankTransfer(change: Partial<ShopSettings['bankTransfer']>) {
  const { settings } = (await owner.json('GET', '/api/admin/settings')).body as { settings: VersionedSettings };
  const saved = await owner.json('PUT', '/api/admin/settings', {
    ...settings,
    bankTransfer: { ...settings.bankTransfer, ...change },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

const days = 7;

describe('an unpaid bank-transfer order', () => {
  it('is reminded once after the days to pay, with its last day and the bank details', async () => {
    const client = await rider();
    const order = await client.order('6');
    await server.sweepUnpaidTransfers();
    expect((await orderOf(client, order.number)).reminder).toBeUndefined();
    await age(server, [order.number], days - 0.01);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(client, order.number)).reminder).toBeUndefined();
    expect(await mailsAbout(server, 'payment-reminder', order.number)).toEqual([]);

    await age(server, [order.number], 0.02);
    const now = Date.now();
    await server.sweepUnpaidTransfers(now);
    const reminded = await orderOf(client, order.number);
    const payBy = new Date(payByOf(now, days, newShopSettings.format.timeZone)).toISOString();
    expect(reminded).toMatchObject({ status: 'placed', reminder: { payBy } });
    // The end of a day in the shop's time zone, at least the days to pay away.
    expect(Date.parse(payBy) - now).toBeGreaterThanOrEqual(days * dayMs);
    expect(Date.parse(payBy) - now).toBeLessThanOrEqual((days + 1) * dayMs + 2 * 60 * 60 * 1000);
    const owners = (await owner.json('GET', `/api/admin/orders/${order.number}`)).body.order;
    expect(owners.reminder).toEqual({ payBy });
    expect(reminded.history.map((entry) => entry.status)).toEqual(['placed']);

    const [mail, ...more] = await mailsAbout(server, 'payment-reminder', order.number);
    expect(more).toEqual([]);
    expect(mail?.recipient).toBe(client.user?.email);
    expect(mail?.subject).toBe(`Reminder: your order ${order.number} is waiting for payment`);
    const lastDay = lastDayToPay(payBy, newShopSettings.format);
    expect(lastDay).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    for (const part of [mail?.text_body ?? '', mail?.html_body ?? '']) {
      expect(part).toContain(`We have not yet received your bank transfer for order ${order.number}`);
      expect(part).toContain(
        `Please transfer ${formatCents(order.money.totalCents, newShopSettings.format)} by ${lastDay}.`,
      );
      expect(part).toContain('we cancel the order and its items go back on the shelf. This is the only reminder.');
      expect(part).toContain('Wellington Community Bank');
      expect(part).toContain('0000 1234 5678');
      expect(part).toContain(`/orders/${order.number}`);
    }

    // Every later round, and the day after: no second reminder.
    await server.sweepUnpaidTransfers();
    await age(server, [order.number], 1);
    await server.sweepUnpaidTransfers();
    expect(await mailsAbout(server, 'payment-reminder', order.number)).toHaveLength(1);
    expect((await orderOf(client, order.number)).status).toBe('placed');
  });

  it("is cancelled by the shop once its last day has ended: stock and the code's use back, history, e-mail", async () => {
    const discount = await createDiscount(owner, { maxUses: 1 });
    const client = await rider();
    await client.add('3');
    const before = await stockOf('3');
    const placed = await placeWith(client, discount.code);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order: Order = placed.body.order;
    expect(await stockOf('3')).toBe(before - 1);
    const other = await rider();
    await other.add('1');
    expectError(await quoteWith(other, discount.code), 409, 'discount/used-up');

    await age(server, [order.number], days + 0.01);
    await server.sweepUnpaidTransfers();
    const { reminder } = await orderOf(client, order.number);
    if (!reminder) throw new Error('not reminded');
    // Just before its last day ends: still the rider's to pay.
    await age(server, [order.number], (Date.parse(reminder.payBy) - Date.now()) / dayMs - 0.01);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(client, order.number)).status).toBe('placed');

    await age(server, [order.number], 0.02);
    // The last day as the order now has it, moved with the rest of its time.
    const payBy = (await orderOf(client, order.number)).reminder?.payBy ?? '';
    await server.sweepUnpaidTransfers();
    await server.sweepUnpaidTransfers();
    const cancelled = await orderOf(client, order.number);
    expect(cancelled.status).toBe('cancelled');
    const note = `Not paid by ${lastDayToPay(payBy, newShopSettings.format)}, the last day to pay that our reminder gave.`;
    expect(cancelled.history.map(({ status, by, note }) => ({ status, by, note }))).toEqual([
      { status: 'placed', by: 'rider', note: null },
      { status: 'cancelled', by: 'shop', note },
    ]);
    const owners = (await owner.json('GET', `/api/admin/orders/${order.number}`)).body.order as Order;
    expect(owners.history.at(-1)).toMatchObject({ status: 'cancelled', by: 'shop', who: 'Piaffe', note });
    expect(await movesTo(server, order.number, 'cancelled')).toBe(1);
    expect(await stockOf('3')).toBe(before);
    expect((await listed(owner, discount.id))?.uses).toBe(0);
    expect((await placeWith(other, discount.code)).status).toBe(201);

    const [mail, ...more] = await mailsAbout(server, 'order-cancelled', order.number);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe(`Your order ${order.number} is cancelled`);
    expect(mail?.text_body).toContain(`We have cancelled your order ${order.number}.`);
    expect(mail?.text_body).toContain(`Reason: ${note}`);
    expect(mail?.html_body).toContain(note);
    expect(await mailsAbout(server, 'payment-reminder', order.number)).toHaveLength(1);
  });

  it('paid between its reminder and its last day, it is never touched', async () => {
    const client = await rider();
    const order = await client.order('4');
    await age(server, [order.number], days + 0.01);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(client, order.number)).reminder).toBeDefined();
    const paid = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, { to: 'paid', from: 'placed' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await age(server, [order.number], 30);
    await server.sweepUnpaidTransfers();
    const now = await orderOf(client, order.number);
    expect(now.status).toBe('paid');
    expect(now.history.map((entry) => entry.status)).toEqual(['placed', 'paid']);
    expect(await mailsAbout(server, 'order-cancelled', order.number)).toEqual([]);
  });

  it("with 'Cancel unpaid orders' off, nothing happens; on again, an old order is reminded before it is cancelled", async () => {
    const reminded = await rider();
    const first = await reminded.order('7');
    await age(server, [first.number], days + 0.01);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(reminded, first.number)).reminder).toBeDefined();

    await saveBankTransfer({ cancelUnpaid: false });
    const history = (await owner.json('GET', '/api/admin/settings')).body.history;
    expect(history[0].what).toBe('Unpaid orders no longer cancelled after a reminder');
    expect((await new Client(server.url).json('GET', '/api/shop')).body.bankTransfer.cancelUnpaid).toBe(false);
    const forgotten = await rider();
    const second = await forgotten.order('7');
    await age(server, [first.number, second.number], 40);
    try {
      await server.sweepUnpaidTransfers();
      expect((await orderOf(reminded, first.number)).status).toBe('placed');
      expect(await orderOf(forgotten, second.number)).toMatchObject({ status: 'placed' });
      expect((await orderOf(forgotten, second.number)).reminder).toBeUndefined();
      expect(await mailsAbout(server, 'payment-reminder', second.number)).toEqual([]);
      expect(await mailsAbout(server, 'order-cancelled', first.number)).toEqual([]);
    } finally {
      await saveBankTransfer({ cancelUnpaid: true });
    }

    // On again: the order reminded before is past its last day and goes; the other, 40 days old and never reminded,
    // gets its reminder and the days to pay after it.
    await server.sweepUnpaidTransfers();
    expect((await orderOf(reminded, first.number)).status).toBe('cancelled');
    const old = await orderOf(forgotten, second.number);
    expect(old.status).toBe('placed');
    expect(old.reminder).toBeDefined();
    expect(await mailsAbout(server, 'payment-reminder', second.number)).toHaveLength(1);
    await age(server, [second.number], days - 1);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(forgotten, second.number)).status).toBe('placed');
    await age(server, [second.number], 2.1);
    await server.sweepUnpaidTransfers();
    expect((await orderOf(forgotten, second.number)).status).toBe('cancelled');
  });

  it('two sweeps at once: each order reminded once, cancelled once, its stock back once', async () => {
    await server.stock.set(100, { itemid: '2' });
    const orders = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const client = await rider();
        return (await client.order('2')).number;
      }),
    );
    expect(await stockOf('2')).toBe(94);
    await age(server, orders, days + 0.01);
    await Promise.all([server.sweepUnpaidTransfers(), server.sweepUnpaidTransfers()]);
    for (const number of orders) {
      expect(await mailsAbout(server, 'payment-reminder', number), number).toHaveLength(1);
    }
    await age(server, orders, days + 1.1);
    await Promise.all([server.sweepUnpaidTransfers(), server.sweepUnpaidTransfers()]);
    for (const number of orders) {
      expect(await movesTo(server, number, 'cancelled'), number).toBe(1);
      expect(await mailsAbout(server, 'order-cancelled', number), number).toHaveLength(1);
      expect(await mailsAbout(server, 'payment-reminder', number), number).toHaveLength(1);
    }
    expect(await stockOf('2')).toBe(100);
  });

  it('is told of at ordering: the confirmation says when the reminder comes and when the cancel', async () => {
    const client = await rider();
    const order = await client.order('8');
    const [confirmation] = await mailsAbout(server, 'order-confirmation', order.number);
    expect(confirmation?.text_body).toContain(
      `If it has not arrived after ${days} days, we remind you once, and cancel the order ${days} days after the reminder.`,
    );
  });
});

describe('a shop from before unpaid orders were cancelled', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it("gains 'Cancel unpaid orders', on; its old unpaid order is reminded first, cancelled the days to pay later", async () => {
    database = await createDatabase();
    const before = await startTestServer({ DATABASE_URL: database.url });
    const client = await confirmedRider(before.url);
    const { number } = await client.order('5');
    await before.stop();
    await undoUnpaidBankTransfers(database);
    // Placed 90 days before the upgrade, never paid.
    await database.query('update shop_order set placed_at = placed_at - $1', [90 * dayMs]);

    const after = await startTestServer({ DATABASE_URL: database.url });
    try {
      const applied = await database.query("select name from piaffe_migration where name like '0035-%'");
      expect(applied).toEqual([{ name: '0035-unpaid-bank-transfers' }]);
      const shop = (await new Client(after.url).json('GET', '/api/shop')).body;
      expect(shop.bankTransfer).toMatchObject({ payWithinDays: days, cancelUnpaid: true });
      await after.sweepUnpaidTransfers();
      expect(await mailsAbout(after, 'payment-reminder', number)).toHaveLength(1);
      expect(await movesTo(after, number, 'cancelled')).toBe(0);
      await age(after, [number], days - 1);
      await after.sweepUnpaidTransfers();
      expect(await movesTo(after, number, 'cancelled')).toBe(0);
      await age(after, [number], 2.1);
      await after.sweepUnpaidTransfers();
      expect(await movesTo(after, number, 'cancelled')).toBe(1);
    } finally {
      await after.stop();
    }
  });
});
