import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import type { Order } from '../../src/shared/orders';
import { nothingToPay } from '../../src/shared/payment/payment-methods';
import { stockOf, stripeEnv } from '../support/card-shop';
import { Client, confirmedRider, sizeOf } from '../support/client';
import { createDiscount } from '../support/discounts';
import { openRawStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { closedUrl, FakeStripe, fakeWebhookSecret, type StripeEvent, signPayload } from '../support/fake-stripe';
import { pdfText } from '../support/pdf-text';
import { startTestServer, type TestServer } from '../support/server';

const webhook = '/api/payments/stripe/webhook';

let fake: FakeStripe;
let server: TestServer;
let owner: Client;

beforeAll(async () => {
  fake = await FakeStripe.start();
  server = await startTestServer(stripeEnv(fake.url));
  fake.webhookUrl = server.url + webhook;
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});

const rider = (url = server.url) => confirmedRider(url);

/** A rider's card order of one bridle: the order, and the Stripe page it was sent to. */
async function cardOrder(client?: Client): Promise<{ client: Client; order: Order; payUrl: string }> {
  const buyer = client ?? (await rider());
  await buyer.add('1');
  const reply = await buyer.placeOrder({ paymentMethod: 'card' });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { client: buyer, order: reply.body.order, payUrl: reply.body.payUrl };
}

async function orderOf(client: Client, number: string): Promise<Order> {
  return (await client.json('GET', `/api/orders/${number}`)).body.order;
}

async function mails(number: string, kind: string): Promise<number> {
  const rows = await server.db.kysely.selectFrom('outbox').select('subject').where('kind', '=', kind).execute();
  return rows.filter((row) => row.subject.includes(`${number} `) || row.subject.endsWith(number)).length;
}

function sessionOf(order: Order) {
  const session = fake.sessionOf(order.number);
  if (!session) throw new Error(`no session for ${order.number}`);
  return session;
}

describe('card payments: placing and paying', () => {
  it('offers Card only on a server with Stripe keys; without them, a card order is refused', async () => {
    expect((await new Client(server.url).json('GET', '/api/payment-methods')).body).toEqual({
      methods: ['bank-transfer', 'collection', 'card'],
    });
    const plain = await startTestServer();
    try {
      expect((await new Client(plain.url).json('GET', '/api/payment-methods')).body).toEqual({
        methods: ['bank-transfer', 'collection'],
      });
      const client = await rider(plain.url);
      await client.add('1');
      expectError(await client.placeOrder({ paymentMethod: 'card' }), 400, 'order/invalid-payment-method');
      expect(await client.cart()).toHaveLength(1);
    } finally {
      await plain.stop();
    }
  });

  it('places the order, takes its stock and makes a Checkout Session for exactly its total', async () => {
    const before = await stockOf(server, '1', sizeOf('1'));
    const { order, payUrl } = await cardOrder();
    expect(order.status).toBe('placed');
    expect(order.paymentMethod).toBe('card');
    expect(order.card).toEqual({ payBy: expect.any(String), paymentId: null, refundId: null });
    expect(Date.parse(order.card?.payBy ?? '') - Date.parse(order.placedAt)).toBe(60 * 60_000);
    expect(await stockOf(server, '1', sizeOf('1'))).toBe(before - 1);
    const session = sessionOf(order);
    expect(payUrl).toBe(session.url);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: order.money.totalCents,
      currency: 'usd',
      client_reference_id: order.number,
      metadata: { order: order.number },
      success_url: `http://localhost:0/orders/${order.number}?payment=done`,
      cancel_url: `http://localhost:0/orders/${order.number}?payment=cancelled`,
    });
    expect(session.expires_at).toBe(Math.floor((Date.parse(order.placedAt) + 60 * 60_000) / 1000));
    const made = fake.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === order.number,
    );
    const orderKey = `piaffe-order-${order.number.slice(3)}-${Date.parse(order.placedAt)}`;
    expect(made?.idempotencyKey).toBe(`${orderKey}-session-1-${session.expires_at}`);
  });

  it("marks the order paid on Stripe's webhook, keeps the payment's id, e-mails once and tells the rider's page", async () => {
    const { client, order } = await cardOrder();
    const stream = await openRawStream(`${server.url}/api/orders/stream`, client.cookieHeader);
    await stream.until(/event: ready/);
    const event = fake.pay(sessionOf(order).id);
    expect(await fake.deliver(event)).toMatchObject({ status: 204 });
    await stream.until(new RegExp(`event: order\\ndata: \\{"number":"${order.number}"\\}`));
    stream.close();
    const paid = await orderOf(client, order.number);
    expect(paid.status).toBe('paid');
    expect(paid.card?.paymentId).toBe(sessionOf(order).payment_intent);
    expect(paid.history.at(-1)).toMatchObject({ status: 'paid', by: 'shop', note: null });
    expect(await mails(order.number, 'order-paid')).toBe(1);

    // Stripe delivers again (it did not see the answer): the same answer, nothing more.
    expect(await fake.deliver(event)).toMatchObject({ status: 204 });
    expect((await orderOf(client, order.number)).history.filter((h) => h.status === 'paid')).toHaveLength(1);
    expect(await mails(order.number, 'order-paid')).toBe(1);
  });

  it('acts once on one event delivered ten times at once', async () => {
    const { client, order } = await cardOrder();
    const event = fake.pay(sessionOf(order).id);
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => fake.deliver(event)));
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(204));
    const paid = await orderOf(client, order.number);
    expect(paid.history.map((h) => h.status)).toEqual(['placed', 'paid']);
    expect(await mails(order.number, 'order-paid')).toBe(1);
    const kept = await server.db.kysely
      .selectFrom('stripe_event')
      .select('outcome')
      .where('id', '=', event.id)
      .execute();
    expect(kept).toEqual([{ outcome: 'paid' }]);
  });

  it('takes events out of order: a delayed payment succeeding after its unpaid completion, or before it', async () => {
    const { client, order } = await cardOrder();
    const session = sessionOf(order);
    const unpaid = fake.event('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'unpaid',
    });
    fake.pay(session.id);
    const succeeded = fake.event('checkout.session.async_payment_succeeded', { ...session });
    expect((await fake.deliver(succeeded)).status).toBe(204);
    expect((await fake.deliver(unpaid)).status).toBe(204);
    const paid = await orderOf(client, order.number);
    expect(paid.history.map((h) => h.status)).toEqual(['placed', 'paid']);

    const second = await cardOrder();
    const later = sessionOf(second.order);
    const waiting = fake.event('checkout.session.completed', {
      ...later,
      status: 'complete',
      payment_status: 'unpaid',
    });
    expect((await fake.deliver(waiting)).status).toBe(204);
    expect((await orderOf(second.client, second.order.number)).status).toBe('placed');
    fake.pay(later.id);
    expect((await fake.deliver(fake.event('checkout.session.async_payment_succeeded', { ...later }))).status).toBe(204);
    expect((await orderOf(second.client, second.order.number)).status).toBe('paid');
  });
});

describe('card payments: what the webhook does not trust', () => {
  it('refuses a missing, wrong or stale signature with 400 and records nothing', async () => {
    const { client, order } = await cardOrder();
    const event = fake.pay(sessionOf(order).id);
    const count = async () =>
      Number(
        (
          await server.db.kysely
            .selectFrom('stripe_event')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const options of [
      { signature: null },
      { signature: 't=1,v1=00' },
      { secret: 'whsec_someoneelse' },
      { timestamp: Math.floor(Date.now() / 1000) - 301 },
    ]) {
      const delivery = await fake.deliver(event, options);
      expect(delivery.status, JSON.stringify(options)).toBe(400);
      expect(JSON.parse(delivery.body).code).toBe('payment/invalid-signature');
    }
    expect(await count()).toBe(before);
    expect((await orderOf(client, order.number)).status).toBe('placed');
  });

  it('keeps an event whose amount, currency or order does not match, shows it to the owner, and marks nothing paid', async () => {
    const { client, order } = await cardOrder();
    const session = { ...(fake.pay(sessionOf(order).id).data.object as object) };
    const events: StripeEvent[] = [
      fake.event('checkout.session.completed', { ...session, amount_total: 1 }),
      fake.event('checkout.session.completed', { ...session, currency: 'eur' }),
      fake.event('checkout.session.completed', {
        ...session,
        metadata: { order: 'PF-99999' },
        client_reference_id: 'PF-99999',
      }),
    ];
    for (const event of events) expect((await fake.deliver(event)).status).toBe(204);
    expect((await orderOf(client, order.number)).status).toBe('placed');
    expect(await mails(order.number, 'order-paid')).toBe(0);

    const shown = await owner.json('GET', '/api/admin/payments/problems');
    expect(shown.status).toBe(200);
    const problems = shown.body.problems.filter((p: { id: string }) => events.some((e) => e.id === p.id));
    expect(problems.map((p: { problem: string }) => p.problem).sort()).toEqual([
      `Paid ${1} cents for ${order.number}, whose total is ${order.money.totalCents} cents.`,
      `Paid for an order the shop does not have (PF-99999).`,
      `Paid in EUR for ${order.number}, which is in USD.`,
    ]);
    expectError(await client.json('GET', '/api/admin/payments/problems'), 403, 'auth/forbidden');
    expectError(await new Client(server.url).json('GET', '/api/admin/payments/problems'), 401, 'auth/unauthenticated');
  });

  it('keeps a signed event it cannot read as a problem for the owner, answers 204 (Stripe would send the same again) and marks nothing paid', async () => {
    const { client, order } = await cardOrder();
    const paid = fake.pay(sessionOf(order).id);
    const session = paid.data.object as Record<string, unknown>;
    const { id: _, ...withoutId } = paid;
    const { data: __, ...withoutData } = fake.event('checkout.session.completed', session);
    const bodies = [
      JSON.stringify(withoutData),
      JSON.stringify(fake.event('checkout.session.completed', null)),
      JSON.stringify(fake.event('checkout.session.completed', { ...session, metadata: { order: [order.number] } })),
      JSON.stringify(withoutId),
      'not JSON at all',
      JSON.stringify([paid]),
    ];
    const send = (body: string) =>
      new Client(server.url).raw('POST', webhook, {
        body,
        headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(body, fakeWebhookSecret) },
      });
    for (const body of bodies) expect((await send(body)).status, body).toBe(204);
    // The same bytes again (Stripe's retry, or a second server): one row, as for any event.
    expect((await send(JSON.stringify(withoutId))).status).toBe(204);
    expect((await orderOf(client, order.number)).status).toBe('placed');
    expect(await mails(order.number, 'order-paid')).toBe(0);

    const rows = await server.db.kysely
      .selectFrom('stripe_event')
      .selectAll()
      .where('outcome', '=', 'problem')
      .execute();
    expect(await server.db.kysely.selectFrom('stripe_event').select('id').where('id', 'is', null).execute()).toEqual(
      [],
    );
    const shown = (await owner.json('GET', '/api/admin/payments/problems')).body.problems as {
      id: string;
      type: string;
      problem: string;
    }[];
    const unread = shown.filter((p) => p.problem.startsWith('Stripe sent a'));
    expect(unread.map((p) => p.problem).sort()).toEqual(
      [
        "Stripe sent a checkout.session.completed event the shop cannot read (data: Invalid input: expected object, received undefined): nothing was done. Look it up in Stripe's dashboard.",
        "Stripe sent a checkout.session.completed event the shop cannot read (data.object: Invalid input: expected object, received null): nothing was done. Look it up in Stripe's dashboard.",
        "Stripe sent a checkout.session.completed event the shop cannot read (data.object.metadata.order: Invalid input: expected string, received array): nothing was done. Look it up in Stripe's dashboard.",
        "Stripe sent a signed event the shop cannot read (id: Invalid input: expected string, received undefined): nothing was done. Look it up in Stripe's dashboard.",
        "Stripe sent a signed event the shop cannot read (not JSON): nothing was done. Look it up in Stripe's dashboard.",
        "Stripe sent a signed event the shop cannot read (the event: Invalid input: expected object, received array): nothing was done. Look it up in Stripe's dashboard.",
      ].sort(),
    );
    expect(unread.find((p) => p.problem.includes('(id:'))).toMatchObject({
      id: expect.stringMatching(/^unreadable-[0-9a-f]{32}$/),
      type: 'checkout.session.completed',
    });
    expect(rows.filter((row) => row.problem?.startsWith('Stripe sent a'))).toHaveLength(6);
  });

  it('is exempt from the same-origin rule (the signature guards it), not from the body limit', async () => {
    const { client, order } = await cardOrder();
    const event = fake.pay(sessionOf(order).id);
    const payload = JSON.stringify(event);
    const sent = await client.raw('POST', webhook, {
      body: payload,
      headers: {
        'content-type': 'application/json',
        origin: 'https://elsewhere.example',
        'stripe-signature': signPayload(payload, fakeWebhookSecret),
      },
    });
    expect(sent.status).toBe(204);
    expect((await orderOf(client, order.number)).status).toBe('paid');
    const huge = JSON.stringify({ ...event, padding: 'x'.repeat(70 * 1024) });
    const tooLarge = await client.raw('POST', webhook, {
      body: huge,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(huge, fakeWebhookSecret) },
    });
    expectError(tooLarge, 413, 'request/body-too-large');
  });
});

describe('card payments: coming back, cancelling, refunding', () => {
  it("'Pay now' closes the last session and makes a new one; refused once paid, and for another rider's order", async () => {
    const { client, order } = await cardOrder();
    const first = sessionOf(order);
    const again = await client.json('POST', `/api/orders/${order.number}/pay`);
    expect(again.status).toBe(200);
    const second = sessionOf(order);
    expect(second.id).not.toBe(first.id);
    expect(again.body.url).toBe(second.url);
    expect(first.status).toBe('expired');
    const orderKey = `piaffe-order-${order.number.slice(3)}-${Date.parse(order.placedAt)}`;
    expect(fake.requests.at(-1)?.idempotencyKey).toMatch(new RegExp(`^${orderKey}-session-2-\\d+$`));
    expectError(await (await rider()).json('POST', `/api/orders/${order.number}/pay`), 404, 'order/not-found');

    await fake.deliver(fake.pay(second.id));
    expectError(await client.json('POST', `/api/orders/${order.number}/pay`), 409, 'payment/not-awaiting');
  });

  it("answers 'Pay now' and cancel on another rider's order as on a number with no order, and leaves its row as it was", async () => {
    const { order } = await cardOrder();
    const stranger = await rider();
    const row = () =>
      server.db.kysely
        .selectFrom('shop_order')
        .selectAll()
        .where('number', '=', Number(order.number.slice(3)))
        .executeTakeFirstOrThrow();
    const answer = async (number: string, action: 'pay' | 'cancel') => {
      const reply = await stranger.json('POST', `/api/orders/${number}/${action}`);
      expectError(reply, 404, 'order/not-found');
      return { status: reply.status, body: reply.body };
    };
    // Its lease free, run out (a server that stopped while talking to Stripe), or held by another server right now.
    for (const lease of [null, Date.now() - 60_000, Date.now() + 60_000]) {
      await server.db.kysely
        .updateTable('shop_order')
        .set({ card_lease_until: lease })
        .where('number', '=', Number(order.number.slice(3)))
        .execute();
      const before = await row();
      for (const action of ['pay', 'cancel'] as const) {
        expect(await answer(order.number, action), `${action}, lease ${lease}`).toEqual(
          await answer('PF-99999999', action),
        );
      }
      expect(await row()).toEqual(before);
    }
  });

  it('lets the rider cancel an unpaid card order (its session closed at Stripe, its stock back), not one being paid', async () => {
    const { client, order } = await cardOrder();
    const before = await stockOf(server, '1', sizeOf('1'));
    const cancelled = await client.json('POST', `/api/orders/${order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.order.status).toBe('cancelled');
    expect(sessionOf(order).status).toBe('expired');
    expect(await stockOf(server, '1', sizeOf('1'))).toBe(before + 1);

    const paying = await cardOrder();
    fake.pay(sessionOf(paying.order).id); // paid at Stripe; the webhook is on its way
    // However often asked, while the payment is on its way: no cancel, and no second session to pay twice through.
    for (let click = 0; click < 2; click++) {
      const cancel = await paying.client.json('POST', `/api/orders/${paying.order.number}/cancel`);
      expectError(cancel, 409, 'payment/in-progress');
      const pay = await paying.client.json('POST', `/api/orders/${paying.order.number}/pay`);
      expectError(pay, 409, 'payment/in-progress');
    }
    expect((await orderOf(paying.client, paying.order.number)).status).toBe('placed');
  });

  it('never refunds when the rules refuse the cancel: a rider cancelling a paid card order, an owner who saw another status', async () => {
    const { client, order } = await cardOrder();
    await fake.deliver(fake.pay(sessionOf(order).id));
    const refundsBefore = fake.refunds.length;
    expectError(await client.json('POST', `/api/orders/${order.number}/cancel`), 409, 'order/invalid-transition');
    const stale = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
      to: 'cancelled',
      from: 'placed',
    });
    expectError(stale, 409, 'order/status-changed');
    expect(fake.refunds.length).toBe(refundsBefore);
    expect((await orderOf(client, order.number)).status).toBe('paid');
  });

  it('does not ship an order whose refund was asked of Stripe without an answer, until it is cancelled', async () => {
    const { client, order } = await cardOrder();
    await fake.deliver(fake.pay(sessionOf(order).id));
    const number = Number(order.number.slice(3));
    // As after a crash or a lost answer while Stripe was refunding.
    await server.db.kysely
      .updateTable('shop_order')
      .set({ refund_started_at: Date.now() })
      .where('number', '=', number)
      .execute();
    const ship = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, { to: 'shipped', from: 'paid' });
    expectError(ship, 409, 'payment/busy');
    const cancel = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
      to: 'cancelled',
      from: 'paid',
    });
    expect(cancel.status).toBe(200);
    expect((await orderOf(client, order.number)).card?.refundId).toMatch(/^re_test_/);
  });

  it("does not offer the owner 'Mark paid' for a card order", async () => {
    const { order } = await cardOrder();
    const reply = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, { to: 'paid', from: 'placed' });
    expectError(reply, 409, 'order/invalid-transition');
  });

  it('refunds a paid card order in full when the owner cancels it: once, however many clicks', async () => {
    const { client, order } = await cardOrder();
    await fake.deliver(fake.pay(sessionOf(order).id));
    const paymentId = sessionOf(order).payment_intent;
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () =>
        owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
          to: 'cancelled',
          from: 'paid',
          note: 'Out of stock',
        }),
      ),
    );
    expect(clicks.filter((c) => c.status === 200)).toHaveLength(1);
    for (const click of clicks.filter((c) => c.status !== 200)) expect(click.status).toBe(409);
    expect(fake.refunds.filter((r) => r.payment_intent === paymentId)).toHaveLength(1);
    const refundKey = `piaffe-order-${order.number.slice(3)}-${Date.parse(order.placedAt)}-refund`;
    expect(fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey)).toContain(refundKey);
    const refunded = await orderOf(client, order.number);
    expect(refunded.status).toBe('cancelled');
    expect(refunded.card?.refundId).toBe(fake.refunds.find((r) => r.payment_intent === paymentId)?.id);
    expect(await mails(order.number, 'order-cancelled')).toBe(1);
  });

  it('keeps the order paid and says why when Stripe refuses the refund', async () => {
    const { client, order } = await cardOrder();
    await fake.deliver(fake.pay(sessionOf(order).id));
    fake.refundRefusal = 'This charge is disputed.';
    try {
      const reply = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
        to: 'cancelled',
        from: 'paid',
      });
      expectError(
        reply,
        409,
        'payment/refund-failed',
        'Stripe refused the refund: This charge is disputed. The order stays paid.',
      );
    } finally {
      fake.refundRefusal = null;
    }
    expect((await orderOf(client, order.number)).status).toBe('paid');
    expect(await mails(order.number, 'order-cancelled')).toBe(0);
  });
});

describe('card payments: time running out, Stripe out of reach', () => {
  it('cancels an unpaid card order after CARD_PAYMENT_MINUTES: session expired, stock back, history and e-mail', async () => {
    const quick = await startTestServer(stripeEnv(fake.url, { CARD_PAYMENT_MINUTES: '0.02' }));
    try {
      const { client, order } = await cardOrder(await rider(quick.url));
      const session = sessionOf(order);
      // Another order, paid at Stripe a moment ago: its webhook is on its way, so the shop leaves it alone.
      const paying = await cardOrder(await rider(quick.url));
      fake.pay(sessionOf(paying.order).id);
      let now = order;
      for (let i = 0; i < 50 && now.status === 'placed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        now = await orderOf(client, order.number);
      }
      expect(now.status).toBe('cancelled');
      expect(now.history.at(-1)).toMatchObject({ by: 'shop', note: 'The card payment was not made within 1 second.' });
      expect(session.status).toBe('expired');
      const mail = await quick.db.kysely
        .selectFrom('outbox')
        .select('kind')
        .where('recipient', '=', order.email)
        .execute();
      expect(mail.map((m) => m.kind).sort()).toEqual(['confirm-email', 'order-cancelled', 'order-confirmation']);
      await new Promise((resolve) => setTimeout(resolve, 2500)); // two more rounds of the sweep
      expect((await orderOf(paying.client, paying.order.number)).status).toBe('placed');
    } finally {
      await quick.stop();
    }
  });

  it('places the order all the same when Stripe cannot be reached; Pay now says so', async () => {
    const away = await startTestServer(stripeEnv(await closedUrl()));
    try {
      const client = await rider(away.url);
      await client.add('1');
      const reply = await client.placeOrder({ paymentMethod: 'card' });
      expect(reply.status).toBe(201);
      expect(reply.body.payUrl).toBeUndefined();
      expect(reply.body.payError).toMatch(/cannot be reached/);
      expectError(
        await client.json('POST', `/api/orders/${reply.body.order.number}/pay`),
        503,
        'server/payments-unavailable',
      );
    } finally {
      await away.stop();
    }
  });
});

describe("card payments: an order that costs nothing, and one below Stripe's minimum (docs/product.md §14)", () => {
  /** A code that takes all of a bridle ($302.99) but `leftCents`. */
  async function codeLeaving(leftCents: number): Promise<string> {
    return (await createDiscount(owner, { gives: { kind: 'amount', amountCents: 30299 - leftCents } })).code;
  }

  it("a 100% code on goods shipped free: placed as paid ('Nothing to pay'), invoiced at $0.00, never sent to Stripe", async () => {
    for (const paymentMethod of ['card', 'bank-transfer', 'collection']) {
      const client = await rider();
      // A bridle and a saddle: shipping is free from $500.00 of goods, before the code.
      await client.add('1');
      await client.add('2');
      const code = (await createDiscount(owner, { gives: { kind: 'percent', percent: 100 } })).code;
      const asked = (path: string) => fake.requests.filter((r) => r.path === path).length;
      const [sessions, refunds] = [asked('/v1/checkout/sessions'), asked('/v1/refunds')];
      const reply = await client.placeOrder({ paymentMethod, discountCode: code });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.payUrl).toBeUndefined();
      const order: Order = reply.body.order;
      expect(order).toMatchObject({
        status: 'paid',
        money: { totalCents: 0 },
        invoice: expect.stringMatching(/^INV-/),
      });
      expect(order.history.map(({ status, by, note }) => [status, by, note])).toEqual([
        ['placed', 'rider', null],
        ['paid', 'shop', nothingToPay],
      ]);
      expect(asked('/v1/checkout/sessions')).toBe(sessions);
      expect(fake.sessionOf(order.number)).toBeUndefined();
      const invoice = await pdfText((await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes);
      expect(invoice).toMatch(/Total\s*\$0\.00/);
      expect(await mails(order.number, 'order-paid')).toBe(1);
      // Nothing to pay now, nothing to pay later.
      expectError(await client.json('POST', `/api/orders/${order.number}/pay`), 409, 'payment/not-awaiting');
      // The owner may still cancel it: a credit note of $0.00, nothing asked of Stripe.
      const cancelled = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
        to: 'cancelled',
        from: 'paid',
        note: 'Changed my mind',
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body.order.creditNote).toMatch(/^CN-/);
      expect(asked('/v1/refunds')).toBe(refunds);
    }
  });

  it('a total of $0.01 to $0.49 cannot be paid by card, and is refused before anything is taken; by transfer it is placed', async () => {
    for (const left of [1, 49]) {
      const client = await rider();
      await client.add('1');
      const code = await codeLeaving(left);
      const refused = await client.placeOrder({ paymentMethod: 'card', delivery: 'collection', discountCode: code });
      expectError(
        refused,
        409,
        'order/card-minimum',
        'A card payment must be at least $0.50: please choose another way to pay.',
      );
      expect(await client.cart()).toHaveLength(1);
      const placed = await client.placeOrder({
        paymentMethod: 'bank-transfer',
        delivery: 'collection',
        discountCode: code,
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(placed.body.order).toMatchObject({ status: 'placed', money: { totalCents: left } });
    }
    // 50 cents is Stripe's least: paid by card as any other order.
    const client = await rider();
    await client.add('1');
    const fifty = await client.placeOrder({
      paymentMethod: 'card',
      delivery: 'collection',
      discountCode: await codeLeaving(50),
    });
    expect(fifty.status, JSON.stringify(fifty.body)).toBe(201);
    expect(fake.sessionOf(fifty.body.order.number)?.amount_total).toBe(50);
  });
});
