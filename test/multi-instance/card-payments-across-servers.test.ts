import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../support/fake-stripe';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Card payments on two servers sharing one PostgreSQL schema (docs/decisions/0023-card-payments.md): Stripe may send
 * one event to both at once, and both sweep for unpaid card orders.
 */
const webhook = '/api/payments/stripe/webhook';
let fake: FakeStripe;
const schemas: TestSchema[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  fake = await FakeStripe.start();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(schemas.map((schema) => schema.drop()));
  await fake.close();
});

/** Two servers on one new schema, taking cards through the fake; `minutes`: CARD_PAYMENT_MINUTES. */
async function twoServers(minutes = '60'): Promise<[TestServer, TestServer]> {
  const schema = await createTestSchema();
  schemas.push(schema);
  const env = {
    STRIPE_SECRET_KEY: fakeStripeKey,
    STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
    STRIPE_API_URL: fake.url,
    CARD_PAYMENT_MINUTES: minutes,
  };
  const a = await startTestServer(env, { schema, name: 'a' });
  const b = await startTestServer(env, { schema, name: 'b' });
  servers.push(a, b);
  return [a, b];
}

async function cardOrder(url: string): Promise<{ client: Client; number: string }> {
  const client = new Client(url);
  await client.signupConfirmed();
  await client.add('1');
  const reply = await client.placeOrder({ paymentMethod: 'card' });
  expect(reply.status).toBe(201);
  return { client, number: reply.body.order.number };
}

describe('card payments on two servers', () => {
  it('one Stripe event delivered to both servers at once, five times each: one move to paid, one e-mail', async () => {
    const [a, b] = await twoServers();
    const { client, number } = await cardOrder(a.url);
    const event = fake.pay(fake.sessionOf(number)?.id ?? '');
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, (_, i) => fake.deliver(event, { to: (i % 2 === 0 ? a : b).url + webhook })),
    );
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(204));
    const order = (await client.json('GET', `/api/orders/${number}`)).body.order;
    expect(order.history.map((h: { status: string }) => h.status)).toEqual(['placed', 'paid']);
    const paid = await a.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'order-paid').execute();
    expect(paid).toHaveLength(1);
  });

  it('both servers sweep: each overdue card order is cancelled once, its stock back once, one e-mail each', async () => {
    const [a, b] = await twoServers('0.03');
    await a.stock.set(100, { itemid: '1' });
    const orders = await Promise.all(Array.from({ length: 6 }, (_, i) => cardOrder((i % 2 === 0 ? a : b).url)));
    const numbers = orders.map((o) => Number(o.number.slice(3)));
    const cancelled = async () =>
      a.db.kysely
        .selectFrom('shop_order')
        .select('number')
        .where('number', 'in', numbers)
        .where('status', '=', 'cancelled')
        .execute();
    for (let i = 0; i < 60 && (await cancelled()).length < numbers.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await cancelled()).toHaveLength(numbers.length);
    // Give a second sweep of either server the time to try again: nothing more may happen.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const events = await a.db.kysely
      .selectFrom('order_event')
      .select('order_number')
      .where('order_number', 'in', numbers)
      .where('status', '=', 'cancelled')
      .execute();
    expect(events).toHaveLength(numbers.length);
    const mails = await a.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'order-cancelled').execute();
    expect(mails).toHaveLength(numbers.length);
    const left = await a.db.kysely.selectFrom('product_size').select('stock').where('itemid', '=', '1').execute();
    expect(left.map((row) => Number(row.stock))).toEqual(left.map(() => 100));
    for (const { number } of orders) expect(fake.sessionOf(number)?.status).toBe('expired');
  });
});
