import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox } from '../../scripts/mailbox';
import { createRoles } from '../../src/server/auth/roles';
import { Client, sameBrowserOn, testMailbox } from '../support/client';
import { EventStream, openRawStream, openStockStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { raceForOrderNumbers } from '../support/order-numbers';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';
import { raceForTheLastUnits, ridersWantingOneSize } from '../support/stock-race';

/**
 * Orders, roles and e-mail across two servers on one PostgreSQL schema, as behind a load balancer: both send the
 * one outbox to one mailbox.
 */
let schema: TestSchema;
let mailbox: Mailbox;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  schema = await createTestSchema();
  mailbox = await testMailbox();
  const env = { SMTP_URL: mailbox.url };
  a = await startTestServer(env, { schema, name: 'a' });
  b = await startTestServer(env, { schema, name: 'b' });
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await mailbox?.close();
  await schema?.drop();
});

describe('two servers, one shop', () => {
  it('fifty riders through both servers at once for five left: exactly five orders, forty-five order/sold-out', async () => {
    const riders = await ridersWantingOneSize([a.url, b.url], 50);
    for (let round = 0; round < 3; round++) await raceForTheLastUnits(riders, a.stock, 5);
  }, 60_000);

  it('numbers orders placed at once through both servers without a gap, while units that took a number roll back', async () => {
    await raceForOrderNumbers([a.url, b.url], [a.db, b.db], 12);
  }, 60_000);

  it('a sale through A reaches the live stock of a page served by B', async () => {
    await a.stock.set(3, { itemid: '4', size: 'L' });
    const watcher = new Client(b.url);
    await watcher.signupConfirmed();
    const stream = await openStockStream(watcher);
    try {
      await stream.next('snapshot');
      const buyer = new Client(a.url);
      await buyer.signupConfirmed();
      await buyer.add('4', 'L');
      await buyer.order();
      expect(await stream.next('stock')).toEqual({ type: 'stock', itemid: '4', size: 'L', stock: 2 });
    } finally {
      stream.close();
    }
  });

  it('an order placed through A empties the cart page served by B', async () => {
    const onA = new Client(a.url);
    await onA.signupConfirmed();
    await onA.add('1');
    const stream = await EventStream.open(sameBrowserOn(b.url, onA));
    try {
      expect((await stream.next('snapshot')).items).toHaveLength(1);
      await onA.order();
      expect(await stream.next('snapshot', 3000, 1)).toEqual({ type: 'snapshot', items: [] });
    } finally {
      stream.close();
    }
  });

  it('numbers orders placed through both at once without a gap or a repeat', async () => {
    const riders = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const client = new Client(i % 2 === 0 ? a.url : b.url);
        await client.signupConfirmed();
        await client.add('8');
        return client;
      }),
    );
    const numbers = (await Promise.all(riders.map((rider) => rider.placeOrder()))).map((reply) =>
      Number(reply.body.order.number.slice(3)),
    );
    expect(new Set(numbers).size).toBe(10);
  });

  it('sends each e-mail once, though both servers send from the one outbox', async () => {
    const before = mailbox.mails.length;
    const riders = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const client = new Client(i % 2 === 0 ? a.url : b.url);
        await client.signupConfirmed();
        return client;
      }),
    );
    const orders = (await Promise.all(riders.map((rider) => rider.order('2', '3')))).concat(
      await Promise.all(riders.map((rider) => rider.order('4'))),
    );
    for (const order of orders) await mailbox.waitFor((m) => m.parsed.subject === `Your order ${order.number}`);
    // Time for a duplicate, were one coming.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const subjects = new Set(orders.map((order) => `Your order ${order.number}`));
    const received = mailbox.mails.slice(before).filter((m) => subjects.has(m.parsed.subject ?? ''));
    expect(received).toHaveLength(orders.length);
    expect(new Set(received.map((m) => m.parsed.messageId)).size).toBe(orders.length);
    const sent = await schema.query<{ n: number }>("select count(*)::int as n from outbox where state = 'sent'");
    expect(sent.rows[0]?.n).toBeGreaterThanOrEqual(orders.length);
  });

  it("a role taken away through one server refuses that owner's next request on the other at once", async () => {
    const boss = new Client(a.url);
    const { email } = await boss.signupConfirmed();
    await createRoles(a.db).grant(email);
    const onB = sameBrowserOn(b.url, boss);
    expect((await onB.json('GET', '/api/admin/orders')).status).toBe(200);
    expect((await onB.session()).body.role).toBe('owner');
    await createRoles(a.db).revoke(email);
    expectError(await onB.json('GET', '/api/admin/orders'), 403, 'auth/forbidden');
    // B's session cache heard of it too.
    await expect.poll(async () => (await onB.session()).body.role).toBe('rider');
  });

  it("an owner's list open on B hears of an order placed through A", async () => {
    const boss = new Client(b.url);
    const { email } = await boss.signupConfirmed();
    await createRoles(b.db).grant(email);
    const stream = await openRawStream(`${b.url}/api/admin/orders/stream`, boss.cookieHeader);
    try {
      await stream.until(/event: ready/);
      const rider = new Client(a.url);
      await rider.signupConfirmed();
      await rider.order('5');
      await stream.until(/event: orders/);
    } finally {
      await stream.close();
    }
  });
});
