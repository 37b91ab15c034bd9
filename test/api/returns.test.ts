import { describe, expect, it } from 'vitest';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { formatCents } from '../../src/shared/money';
import type { Order } from '../../src/shared/orders';
import type { Return } from '../../src/shared/returns';
import { cardShopWithOwner, stockOf } from '../support/card-shop';
import { Client, confirmedRider, sizeOf } from '../support/client';
import { expectError } from '../support/expect-error';
import { pdfText } from '../support/pdf-text';

const shop = cardShopWithOwner();

const money = (cents: number) => formatCents(cents, newShopSettings.format);

const rider = () => confirmedRider(shop.server.url);

const move = (number: string, from: string, to: string) =>
  shop.owner.json('POST', `/api/admin/orders/${number}/moves`, { from, to });

/** A rider's bank-transfer order of the items (a bridle and a saddle by default), paid and shipped. */
async function shippedOrder(...itemids: string[]): Promise<{ client: Client; order: Order }> {
  const client = await rider();
  const placed = await client.order(...(itemids.length > 0 ? itemids : ['1', '2']));
  expect((await move(placed.number, 'placed', 'paid')).status).toBe(200);
  const shipped = await move(placed.number, 'paid', 'shipped');
  expect(shipped.status).toBe(200);
  return { client, order: shipped.body.order };
}

/** A rider's card order of a bridle and boots, paid at the fake Stripe and shipped. */
async function shippedCardOrder(): Promise<{ client: Client; order: Order }> {
  const client = await rider();
  await client.add('1');
  await client.add('3');
  const placed = await client.placeOrder({ paymentMethod: 'card' });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order: Order = placed.body.order;
  const session = shop.fake.sessionOf(order.number);
  if (!session) throw new Error(`no session for ${order.number}`);
  await shop.fake.deliver(shop.fake.pay(session.id));
  const shipped = await move(order.number, 'paid', 'shipped');
  expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
  return { client, order: shipped.body.order };
}

const ask = (client: Client, order: Order, lines: unknown[]) =>
  client.json('POST', `/api/orders/${order.number}/returns`, { lines });

async function asked(client: Client, order: Order, lines: unknown[]): Promise<Return> {
  const reply = await ask(client, order, lines);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.return;
}

async function receive(ret: Return, restock = true): Promise<Return> {
  const lines = ret.lines.map((line) => ({ line: line.line, restock }));
  const reply = await shop.owner.json('POST', `/api/admin/returns/${ret.number}/receive`, { lines });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.return;
}

const settle = (ret: Return, refundShipping = false) =>
  shop.owner.json('POST', `/api/admin/returns/${ret.number}/refund`, { refundShipping });

async function refundsOf(order: Order) {
  return shop.server.db.kysely
    .selectFrom('refund')
    .selectAll()
    .where('order_number', '=', Number(order.number.slice(3)))
    .orderBy('seq')
    .execute();
}

async function mailsTo(email: string, kind: string): Promise<number> {
  const rows = await shop.server.db.kysely
    .selectFrom('outbox')
    .select('id')
    .where('kind', '=', kind)
    .where('recipient', '=', email)
    .execute();
  return rows.length;
}

describe('a rider returns one of two lines for a refund; the owner receives and refunds it', () => {
  it('numbers the return, e-mails where to send it, restocks, refunds exactly the line with a credit note', async () => {
    const { client, order } = await shippedOrder();
    const offer = (await client.json('GET', `/api/orders/${order.number}/returns`)).body;
    expect(offer.until).not.toBeNull();
    expect(offer.lines.map((line: { returnable: boolean }) => line.returnable)).toEqual([true, true]);
    expect(offer.address).toContain('12 Arena Lane');

    const ret = await asked(client, order, [{ line: 1, reason: 'too-small', outcome: 'refund' }]);
    expect(ret).toMatchObject({ state: 'requested', order: order.number, refund: null });
    expect(ret.number).toMatch(/^RET-\d{4}-\d{5}$/);
    expect(await mailsTo(order.email, 'return-requested')).toBe(1);
    // The same line again: refused, never a second return of it.
    expectError(
      await ask(client, order, [{ line: 1, reason: 'too-large', outcome: 'refund' }]),
      409,
      'return/line-taken',
    );

    const line = order.lines[0] as Order['lines'][number];
    const before = await stockOf(shop.server, line.itemid, line.size as string);
    expectError(await settle(ret), 409, 'return/not-received');
    const received = await receive(ret);
    expect(received.state).toBe('received');
    expect(await stockOf(shop.server, line.itemid, line.size as string)).toBe(before + 1);

    const reply = await settle(received);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const refunded: Return = reply.body.return;
    // No discount and no tax in a new shop: exactly the line's price.
    expect(refunded).toMatchObject({ state: 'refunded', refund: { amountCents: line.priceCents, shippingCents: 0 } });
    const creditNote = refunded.refund?.creditNote as string;
    expect(creditNote).toMatch(/^CN-\d{4}-\d{5}$/);
    expect(await refundsOf(order)).toMatchObject([
      { seq: 1, return_number: ret.number, credit_note: creditNote, provider_refund_id: null },
    ]);

    const now = (await client.json('GET', `/api/orders/${order.number}`)).body.order as Order;
    expect(now.refundedCents).toBe(line.priceCents);
    expect(now.creditNote).toBeUndefined();
    const pdf = await client.raw('GET', `/api/orders/${order.number}/documents/${creditNote}`);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(order.invoice as string);
    expect(text).toContain(`-${money(line.priceCents)}`);
    expect(text).not.toContain((order.lines[1] as Order['lines'][number]).name);
    // Another rider reaches none of it.
    const other = await rider();
    expectError(
      await other.raw('GET', `/api/orders/${order.number}/documents/${creditNote}`),
      404,
      'invoice/not-found',
    );
    expectError(await other.json('GET', `/api/orders/${order.number}/returns`), 404, 'return/order-not-found');
    expectError(
      await ask(other, order, [{ line: 2, reason: 'damaged', outcome: 'refund' }]),
      404,
      'return/order-not-found',
    );
    expect(await mailsTo(order.email, 'return-settled')).toBe(1);
  });

  it('pays back the shipping once, when asked, and the whole order at last: never more than was paid', async () => {
    const { client, order } = await shippedOrder('1');
    const first = await receive(await asked(client, order, [{ line: 1, reason: 'damaged', outcome: 'refund' }]), false);
    const reply = await settle(first, true);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.return.refund.amountCents).toBe(order.money.totalCents);
    const refunds = await refundsOf(order);
    expect(refunds.map((r) => Number(r.refunded_cents))).toEqual([order.money.totalCents]);
    expect((await client.json('GET', `/api/orders/${order.number}`)).body.order.refundedCents).toBe(
      order.money.totalCents,
    );
    // The database holds the sum at or below what was paid, whatever the code does.
    await expect(
      shop.server.db.kysely
        .insertInto('refund')
        .values({
          ...refunds[0],
          seq: 2,
          return_number: null,
          amount_cents: 1,
          refunded_cents: order.money.totalCents + 1,
        } as never)
        .execute(),
    ).rejects.toThrow();
  });
});

describe('what a rider may ask, and when', () => {
  it('refuses an order not shipped, returns turned off, a line that is not the order’s, a size it does not come in', async () => {
    const client = await rider();
    const placed = await client.order('1');
    expectError(await ask(client, placed, [{ line: 1, reason: 'damaged', outcome: 'refund' }]), 409, 'return/closed');
    const { client: buyer, order } = await shippedOrder('1');
    expectError(
      await ask(buyer, order, [{ line: 9, reason: 'damaged', outcome: 'refund' }]),
      400,
      'return/unknown-line',
    );
    expectError(
      await ask(buyer, order, [{ line: 1, reason: 'too-small', outcome: 'exchange', size: 'Huge' }]),
      400,
      'return/unknown-size',
    );
    expectError(
      await ask(buyer, order, [{ line: 1, reason: 'too-small', outcome: 'exchange' }]),
      400,
      'return/invalid',
    );
    expectError(await ask(buyer, order, []), 400, 'return/invalid');
    // Shipped longer ago than the shop's 30 days.
    await shop.server.db.kysely
      .updateTable('order_event')
      .set({ at: Date.now() - 31 * 24 * 3600 * 1000 })
      .where('order_number', '=', Number(order.number.slice(3)))
      .where('status', '=', 'shipped')
      .execute();
    expectError(await ask(buyer, order, [{ line: 1, reason: 'damaged', outcome: 'refund' }]), 409, 'return/closed');
    expect((await buyer.json('GET', `/api/orders/${order.number}/returns`)).body.until).toBeNull();
  });

  it('keeps the owner’s routes to owners', async () => {
    const client = await rider();
    expectError(await client.json('GET', '/api/admin/returns'), 403, 'auth/forbidden');
    expectError(
      await new Client(shop.server.url).json('GET', '/api/orders/PF-10001/returns'),
      401,
      'auth/unauthenticated',
    );
    expectError(await shop.owner.json('GET', '/api/admin/returns/RET-2000-99999'), 404, 'return/not-found');
    expectError(await shop.owner.json('GET', '/api/admin/returns/nope'), 404, 'return/not-found');
  });
});

describe('a return and a cancel at once', () => {
  it('never both: a cancelled order has no return, a returned one was shipped and is not cancelled', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await rider();
      const placed = await client.order('1');
      expect((await move(placed.number, 'placed', 'paid')).status).toBe(200);
      const [shipped, cancelled, ...asks] = await Promise.all([
        move(placed.number, 'paid', 'shipped'),
        move(placed.number, 'paid', 'cancelled'),
        ...Array.from({ length: 3 }, () => ask(client, placed, [{ line: 1, reason: 'damaged', outcome: 'refund' }])),
      ]);
      expect([shipped?.status, cancelled?.status].filter((status) => status === 200)).toHaveLength(1);
      const order = (await client.json('GET', `/api/orders/${placed.number}`)).body.order as Order;
      const returns = asks.filter((reply) => reply.status === 201);
      if (order.status === 'cancelled') {
        expect(returns).toHaveLength(0);
        expect(await refundsOf(order)).toHaveLength(1);
      } else expect(returns.length).toBeLessThanOrEqual(1);
      for (const reply of asks)
        if (reply.status !== 201) expect(reply.body.code).toMatch(/^return\/(closed|line-taken)$/);
    }
  });
});

describe('exchanges and refusals', () => {
  it('holds the new size from the request, gives it back when refused, sends it as a new order at no charge', async () => {
    const { client, order } = await shippedOrder('3');
    const line = order.lines[0] as Order['lines'][number];
    const offer = (await client.json('GET', `/api/orders/${order.number}/returns`)).body;
    const other = offer.lines[0].exchangeSizes[0] as string;
    expect(other).toBeDefined();
    expect(other).not.toBe(line.size);
    const before = await stockOf(shop.server, line.itemid, other);
    const first = await asked(client, order, [{ line: 1, reason: 'too-small', outcome: 'exchange', size: other }]);
    expect(await stockOf(shop.server, line.itemid, other)).toBe(before - 1);

    const refused = await shop.owner.json('POST', `/api/admin/returns/${first.number}/refuse`, {
      reason: 'Worn outside.',
    });
    expect(refused.body.return).toMatchObject({ state: 'refused', refusedReason: 'Worn outside.' });
    expect(await stockOf(shop.server, line.itemid, other)).toBe(before);
    expect(await mailsTo(order.email, 'return-refused')).toBe(1);
    expectError(await settle(first), 409, 'return/state-changed');

    const second = await asked(client, order, [{ line: 1, reason: 'too-small', outcome: 'exchange', size: other }]);
    const reply = await settle(await receive(second));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const exchanged: Return = reply.body.return;
    expect(exchanged).toMatchObject({ state: 'exchanged', refund: null });
    const sent = (await client.json('GET', `/api/orders/${exchanged.exchangeOrder}`)).body.order as Order;
    expect(sent).toMatchObject({ status: 'paid', money: { totalCents: 0 } });
    expect(sent.lines).toEqual([{ itemid: line.itemid, name: line.name, priceCents: 0, size: other }]);
    // Its stock was taken at the request, once.
    expect(await stockOf(shop.server, line.itemid, other)).toBe(before - 1);
    expect(await refundsOf(order)).toEqual([]);
    expect(sizeOf(line.itemid)).toBeDefined();
  });
});

describe('a card order’s part refund through Stripe', () => {
  it('refunds that amount at Stripe once; a refusal leaves it received with the reason, and it can be tried again', async () => {
    const { client, order } = await shippedCardOrder();
    const ret = await receive(await asked(client, order, [{ line: 2, reason: 'too-large', outcome: 'refund' }]));
    shop.fake.refundRefusal = 'This charge is disputed.';
    try {
      expectError(await settle(ret), 409, 'return/refund-failed');
    } finally {
      shop.fake.refundRefusal = null;
    }
    const after = (await shop.owner.json('GET', `/api/admin/returns/${ret.number}`)).body.return as Return;
    expect(after).toMatchObject({ state: 'received', refundProblem: 'This charge is disputed.' });

    const reply = await settle(after);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const line = order.lines[1] as Order['lines'][number];
    const atStripe = shop.fake.refunds.filter((r) => r.payment_intent === order.card?.paymentId);
    expect(atStripe.map((r) => r.amount)).toEqual([line.priceCents]);
    expect(await refundsOf(order)).toMatchObject([
      { provider_refund_id: atStripe[0]?.id, amount_cents: line.priceCents },
    ]);
  });

  it('two clicks on Refund at once: one refund at Stripe, one credit note, one kept refund', async () => {
    const { client, order } = await shippedCardOrder();
    const ret = await receive(await asked(client, order, [{ line: 1, reason: 'too-large', outcome: 'refund' }]));
    const replies = await Promise.all(Array.from({ length: 5 }, () => settle(ret)));
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const reply of replies)
      if (reply.status !== 200) expect(reply.body.code).toMatch(/^return\/(refund-busy|state-changed)$/);
    expect(shop.fake.refunds.filter((r) => r.payment_intent === order.card?.paymentId)).toHaveLength(1);
    expect(await refundsOf(order)).toHaveLength(1);
    const notes = await shop.server.db.kysely
      .selectFrom('invoice')
      .select('number')
      .where('return_number', '=', ret.number)
      .execute();
    expect(notes).toHaveLength(1);
  });

  it('a refund answered late: a second click meanwhile is told it is being made, and makes none', async () => {
    const { client, order } = await shippedCardOrder();
    const ret = await receive(await asked(client, order, [{ line: 1, reason: 'too-large', outcome: 'refund' }]));
    shop.fake.refundDelayMs = 1500;
    try {
      const first = settle(ret);
      // The first click's refund is at Stripe, not answered yet.
      while (!shop.fake.requests.some((r) => r.path === '/v1/refunds' && r.idempotencyKey?.includes(ret.number))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expectError(await settle(ret), 409, 'return/refund-busy');
      expect((await first).status).toBe(200);
    } finally {
      shop.fake.refundDelayMs = 0;
    }
    expect(shop.fake.refunds.filter((r) => r.payment_intent === order.card?.paymentId)).toHaveLength(1);
    expect(await refundsOf(order)).toHaveLength(1);
  });

  it('two riders’ windows at once ask the same line once', async () => {
    const { client, order } = await shippedOrder('1');
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => ask(client, order, [{ line: 1, reason: 'damaged', outcome: 'refund' }])),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    for (const reply of replies) if (reply.status !== 201) expectError(reply, 409, 'return/line-taken');
  });
});
