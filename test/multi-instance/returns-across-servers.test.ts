import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client, sameBrowserOn } from '../support/client';
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../support/fake-stripe';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Returns on two servers sharing one PostgreSQL schema (docs/decisions/0064-returns.md): refunds, credit notes,
 * return numbers and held sizes counted exactly once, whichever server is asked, however often at once.
 */
let fake: FakeStripe;
let schema: TestSchema;
let a: TestServer;
let b: TestServer;
let owner: Client;

beforeAll(async () => {
  fake = await FakeStripe.start();
  schema = await createTestSchema();
  const env = { STRIPE_SECRET_KEY: fakeStripeKey, STRIPE_WEBHOOK_SECRET: fakeWebhookSecret, STRIPE_API_URL: fake.url };
  a = await startTestServer(env, { schema, name: 'a' });
  b = await startTestServer(env, { schema, name: 'b' });
  fake.webhookUrl = `${a.url}/api/payments/stripe/webhook`;
  owner = new Client(a.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(a.db).grant(email);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await schema?.drop();
  await fake?.close();
});

/** An owner's click on server A or B, by turns. */
const on = (i: number) => (i % 2 === 0 ? owner : sameBrowserOn(b.url, owner));

/** A rider's card order of a bridle and boots, paid through the fake Stripe and shipped. */
async function shippedCardOrder(): Promise<{ client: Client; number: string; paymentId: string }> {
  const client = new Client(a.url);
  await client.signupConfirmed();
  await client.add('1');
  await client.add('3');
  const placed = await client.placeOrder({ paymentMethod: 'card' });
  expect(placed.status).toBe(201);
  const { number } = placed.body.order;
  await fake.deliver(fake.pay(fake.sessionOf(number)?.id ?? ''));
  const shipped = await owner.json('POST', `/api/admin/orders/${number}/moves`, { to: 'shipped', from: 'paid' });
  expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
  return { client, number, paymentId: shipped.body.order.card.paymentId };
}

describe('returns on two servers', () => {
  it("ten 'Refund' clicks on both servers at once: one refund at Stripe, one credit note, one kept refund", async () => {
    for (let round = 0; round < 3; round++) {
      const { client, number, paymentId } = await shippedCardOrder();
      const asked = await client.json('POST', `/api/orders/${number}/returns`, {
        lines: [
          { line: 1, reason: 'too-small', outcome: 'refund' },
          { line: 2, reason: 'too-large', outcome: 'refund' },
        ],
      });
      expect(asked.status).toBe(201);
      const ret = asked.body.return.number;
      const lines = [1, 2].map((line) => ({ line, restock: true }));
      expect((await owner.json('POST', `/api/admin/returns/${ret}/receive`, { lines })).status).toBe(200);
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          on(i).json('POST', `/api/admin/returns/${ret}/refund`, { refundShipping: true }),
        ),
      );
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      for (const reply of replies) {
        if (reply.status !== 200) expect(reply.body.code).toMatch(/^return\/(refund-busy|state-changed)$/);
      }
      const atStripe = fake.refunds.filter((refund) => refund.payment_intent === paymentId);
      expect(atStripe).toHaveLength(1);
      const order = (await client.json('GET', `/api/orders/${number}`)).body.order;
      // Both lines and the shipping: exactly what was paid, once.
      expect(atStripe[0]?.amount).toBe(order.money.totalCents);
      expect(order.refundedCents).toBe(order.money.totalCents);
      const kept = await a.db.kysely
        .selectFrom('refund')
        .select('seq')
        .where('order_number', '=', Number(number.slice(3)))
        .execute();
      expect(kept).toHaveLength(1);
      const notes = await a.db.kysely.selectFrom('invoice').select('number').where('return_number', '=', ret).execute();
      expect(notes).toHaveLength(1);
    }
  });

  it('riders on both servers at once: return numbers without a gap; the last unit of a size to one exchange or order', async () => {
    const riders = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const { client, number } = await shippedCardOrder();
        return { client: i % 2 === 0 ? client : sameBrowserOn(b.url, client), number };
      }),
    );
    // One unit left of the boots' other size; a seventh rider orders it as the others ask for it in exchange.
    const sizes = await a.db.kysely
      .selectFrom('product_size')
      .select(['size', 'key'])
      .where('itemid', '=', '3')
      .execute();
    const bought = (await riders[0]?.client.json('GET', `/api/orders/${riders[0]?.number}`))?.body.order.lines[1].size;
    const other = sizes.find((size) => size.size !== bought)?.size as string;
    await a.stock.set(1, { itemid: '3', size: other });
    const buyer = new Client(b.url);
    await buyer.signupConfirmed();
    await buyer.add('3', other);
    const [ordered, ...asked] = await Promise.all([
      buyer.placeOrder(),
      ...riders.map(({ client, number }) =>
        client.json('POST', `/api/orders/${number}/returns`, {
          lines: [{ line: 2, reason: 'too-small', outcome: 'exchange', size: other }],
        }),
      ),
    ]);
    const winners = [ordered, ...asked].filter((reply) => reply?.status === 201);
    expect(winners).toHaveLength(1);
    for (const reply of asked) if (reply.status !== 201) expect(reply.body.code).toBe('return/size-sold-out');
    const left = await a.db.kysely
      .selectFrom('product_size')
      .select('stock')
      .where('itemid', '=', '3')
      .where('size', '=', other)
      .executeTakeFirstOrThrow();
    expect(Number(left.stock)).toBe(0);

    // Refund returns on both servers at once: every number of the year once, none skipped.
    const refunds = await Promise.all(
      riders.map(({ client, number }) =>
        client.json('POST', `/api/orders/${number}/returns`, {
          lines: [{ line: 1, reason: 'damaged', outcome: 'refund' }],
        }),
      ),
    );
    expect(refunds.map((reply) => reply.status)).toEqual(Array(riders.length).fill(201));
    const numbers = (await a.db.kysely.selectFrom('return_request').select('number').execute())
      .map((row) => Number(row.number.slice(-5)))
      .sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  });
});
