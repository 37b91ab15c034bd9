import { describe, expect, it } from 'vitest';
import type { ReceivedMail } from '../../scripts/mailbox';
import type { Order } from '../../src/shared/orders';
import { Client, testMailbox } from '../support/client';
import { crashScene } from '../support/crash-scene';
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../support/fake-stripe';
import { stockUp, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';

const scene = crashScene();

const riders = 30;
const killAfterOrders = 10;
/** Of each size the riders order (a new shop has 5): enough for every rider, so stock never refuses an order here. */
const startingStock = 100;

/** Riders, each with the same three products in the cart. */
async function ridersWithCarts(url: string, count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client(url);
      await client.signupConfirmed();
      for (const itemid of ['1', '3', '5']) await client.add(itemid);
      return client;
    }),
  );
}

/**
 * Waits until every e-mail of `kind` in the outbox is sent: the sender tries none of them again, and a test mailbox
 * holds each one it took (it keeps a message before it answers), so a duplicate would be there by now.
 */
async function everySent(database: TestDatabase, kind: string): Promise<void> {
  const unsent = () => database.query("select id from outbox where kind = $1 and state <> 'sent'", [kind]);
  await until(async () => (await unsent()).length === 0, 30_000, `every '${kind}' e-mail sent`);
}

describe('crash durability of orders and e-mail', () => {
  it(`SIGKILL while ${riders} orders are placed: every acknowledged order is whole, and no half order exists`, async () => {
    const database = await scene.database();
    let server = await scene.start();
    await stockUp(database, startingStock);
    const clients = await ridersWithCarts(server.url, riders);
    const acknowledged: Order[] = [];
    const running = server;
    let killed: Promise<unknown> | undefined;
    await Promise.all(
      clients.map(async (client) => {
        try {
          const reply = await client.placeOrder();
          if (reply.status !== 201) return;
          acknowledged.push(reply.body.order);
          if (acknowledged.length === killAfterOrders) killed = running.kill('SIGKILL');
        } catch {
          // Cut off by the kill.
        }
      }),
    );
    expect(await killed).toMatchObject({ signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfterOrders);

    server = await scene.start();
    const orders = await database.query<{ number: number; uid: string; item_count: number; total_cents: number }>(
      'select number, uid, item_count, total_cents from shop_order',
    );
    // Some riders' orders never committed: the kill really came in the middle.
    expect(orders.length).toBeLessThan(riders);
    expect(orders.length).toBeGreaterThanOrEqual(acknowledged.length);
    const uids = new Set(orders.map((o) => o.uid));
    for (const order of orders) {
      const lines = await database.query('select itemid from order_line where order_number = $1', [order.number]);
      expect(lines).toHaveLength(Number(order.item_count));
      expect(await database.query('select seq from order_event where order_number = $1', [order.number])).toHaveLength(
        1,
      );
      // The order's cart went with it, and its e-mail was written with it.
      expect(await database.query('select id from cart_item where uid = $1', [order.uid])).toEqual([]);
      expect(
        await database.query("select id from outbox where kind = 'order-confirmation' and subject = $1", [
          `Your order PF-${order.number}`,
        ]),
      ).toHaveLength(1);
    }
    for (const order of acknowledged) {
      const stored = orders.find((o) => `PF-${o.number}` === order.number);
      // A 64-bit integer on PostgreSQL, which its client reads as text.
      expect(stored && { ...stored, total_cents: Number(stored.total_cents) }, order.number).toMatchObject({
        item_count: 3,
        total_cents: order.money.totalCents,
      });
    }
    // Every unit is on the shelf or in a stored order: none lost with the orders that never committed.
    const units = await database.query<{ itemid: string; size: string; stock: number; sold: number }>(
      `select s.itemid, s.size, s.stock, (select count(*) from order_line l where l.itemid = s.itemid and l.size = s.size) as sold
       from product_size s where s.stock <> $1 order by s.itemid`,
      [startingStock],
    );
    expect(units.map((u) => [u.itemid, u.size, Number(u.stock) + Number(u.sold)])).toEqual([
      ['1', 'Full', startingStock],
      ['3', '8', startingStock],
      ['5', '8', startingStock],
    ]);
    expect(Number(units[0]?.sold)).toBe(orders.length);
    // A rider whose order never committed still has the whole cart, and can order now.
    const waiting = clients.filter((client) => !uids.has(client.user?.uid ?? ''));
    expect(waiting.length).toBeGreaterThan(0);
    for (const before of waiting) {
      const again = new Client(server.url);
      again.cookies = new Map(before.cookies);
      expect(await again.cart()).toHaveLength(3);
    }
    const retry = new Client(server.url);
    retry.cookies = new Map(waiting[0]?.cookies);
    expect((await retry.placeOrder()).status).toBe(201);
    console.info(
      `[orders ${database.backend}] ${riders} orders at once; SIGKILL at the ${killAfterOrders}th acknowledgement; ` +
        `${acknowledged.length} acknowledged, ${orders.length} stored, all whole, every unit of stock accounted for`,
    );
  }, 120_000);

  it('SIGKILL while e-mails are being sent: after restart every e-mail arrives, at most one twice', async () => {
    const orders = 12;
    // A slow mail server, so the kill lands while the sender is at work.
    const mailbox = scene.closing(await testMailbox({ acceptAfterMs: 150 }));
    const database = await scene.database();
    const env = { SMTP_URL: mailbox.url };
    let server = await scene.start({ env });
    await stockUp(database, startingStock);
    const clients = await ridersWithCarts(server.url, orders);
    const placed: Order[] = [];
    for (const client of clients) placed.push((await client.placeOrder()).body.order);
    const subjects = placed.map((order) => `Your order ${order.number}`);
    const isOrderMail = (m: ReceivedMail) => subjects.includes(m.parsed.subject ?? '');
    await mailbox.waitFor(isOrderMail, { ms: 20_000 });
    await mailbox.waitFor(isOrderMail, { ms: 20_000, after: mailbox.mails.findIndex(isOrderMail) + 1 });
    await server.kill('SIGKILL');
    const beforeRestart = mailbox.mails.filter(isOrderMail).length;
    expect(beforeRestart).toBeLessThan(orders);

    server = await scene.start({ env });
    for (const subject of subjects) await mailbox.waitFor((m) => m.parsed.subject === subject, { ms: 30_000 });
    await everySent(database, 'order-confirmation');
    const received = mailbox.mails.filter((m) => subjects.includes(m.parsed.subject ?? ''));
    const duplicates = received.length - orders;
    // A duplicate is only possible for the e-mail the mail server took just before the kill (docs/RELIABILITY.md).
    expect(duplicates).toBeLessThanOrEqual(1);
    expect(new Set(received.map((m) => m.parsed.subject)).size).toBe(orders);
    const states = await database.query<{ state: string }>(
      "select state from outbox where kind = 'order-confirmation'",
    );
    expect(states.map((s) => s.state)).toEqual(Array(orders).fill('sent'));
    console.info(
      `[mail ${database.backend}] ${orders} e-mails; SIGKILL after ${beforeRestart} arrived; ` +
        `all ${orders} arrived after restart, ${duplicates} twice`,
    );
  }, 120_000);

  it("SIGKILL right after Stripe's webhook commits, its answer counted lost: Stripe's retry after restart changes nothing, one e-mail", async () => {
    const mailbox = scene.closing(await testMailbox());
    const stripe = scene.closing(await FakeStripe.start());
    const database = await scene.database();
    const env = {
      SMTP_URL: mailbox.url,
      STRIPE_SECRET_KEY: fakeStripeKey,
      STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
      STRIPE_API_URL: stripe.url,
    };
    let server = await scene.start({ env });
    await stockUp(database, startingStock);
    const [rider] = await ridersWithCarts(server.url, 1);
    if (!rider) throw new Error('no rider');
    const placed = await rider.placeOrder({ paymentMethod: 'card' });
    const number: string = placed.body.order.number;
    const event = stripe.pay(stripe.sessionOf(number)?.id ?? '');
    const webhook = `${server.url}/api/payments/stripe/webhook`;

    // The delivery goes out; the server is killed the moment its unit of work is visible as committed. Whether or not
    // its 204 had left the process, Stripe counts a delivery it did not see answered as failed, and sends it again.
    const firstTry = stripe.deliver(event, { to: webhook }).catch((error: Error) => error);
    const committed = () =>
      database.query<{ outcome: string }>('select outcome from stripe_event where id = $1', [event.id]);
    for (let i = 0; i < 400 && (await committed()).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await server.kill('SIGKILL');
    expect(await committed()).toEqual([{ outcome: 'paid' }]);
    const first = await firstTry;

    server = await scene.start({ env });
    const retry = await stripe.deliver(event, { to: `${server.url}/api/payments/stripe/webhook` });
    expect(retry.status).toBe(204);
    const subject = `We have your payment for order ${number}`;
    await mailbox.waitFor((m) => m.parsed.subject === subject, { ms: 20_000 });
    await everySent(database, 'order-paid');
    expect(mailbox.mails.filter((m) => m.parsed.subject === subject)).toHaveLength(1);
    const moves = await database.query<{ status: string }>(
      'select status from order_event where order_number = $1 order by seq',
      [Number(number.slice(3))],
    );
    expect(moves.map((m) => m.status)).toEqual(['placed', 'paid']);
    expect(await database.query("select id from outbox where kind = 'order-paid'")).toHaveLength(1);
    console.info(
      `[stripe ${database.backend}] SIGKILL after the webhook's commit (first answer: ${
        first instanceof Error ? 'none, connection cut' : first.status
      }); the retry after restart: 204, no second move, one e-mail`,
    );
  }, 120_000);
});
