import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstOrderNumber } from '../../src/server/db/migrations/0003-orders';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { limits } from '../../src/shared/limits';
import { type Order, parseOrderNumber } from '../../src/shared/orders';
import { address, Client, confirmedRider, orderKey, todaysShipping as shopShipping } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { atTheYard, untaxed } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const priceOf = (itemid: string) => catalogue.find((p) => p.itemid === itemid)?.priceCents ?? Number.NaN;
const orderNumber = /^PF-\d{5,}$/;

const rider = () => confirmedRider(server.url);

/** The outbox rows of one recipient, oldest first. */
/** The e-mails about orders written to `email` (not the sign-up's link to confirm the address), oldest first. */
async function mailsTo(email: string) {
  return server.db.kysely
    .selectFrom('outbox')
    .select(['kind', 'subject', 'text_body', 'state'])
    .where('recipient', '=', email)
    .where('kind', '!=', 'confirm-email')
    .orderBy('created_at')
    .execute();
}

describe('placing an order', () => {
  it('answers 201 with the order built from the cart, empties the cart and writes the confirmation e-mail', async () => {
    const client = await rider();
    const first = await client.add('1');
    const second = await client.add('6');
    const reply = await client.placeOrder({ paymentMethod: 'collection' });
    expect(reply.status).toBe(201);
    const order: Order = reply.body.order;
    const subtotal = priceOf('1') + priceOf('6');
    expect(order).toEqual({
      number: expect.stringMatching(orderNumber),
      placedAt: expect.any(String),
      status: 'placed',
      itemCount: 2,
      // Its money, one value, with the delivery method as it was when the order was placed (docs/product.md §18).
      money: untaxed({ subtotalCents: subtotal, shippingCents: 0, shippingMethod: atTheYard, totalCents: subtotal }),
      email: client.user?.email,
      lines: [first, second].map(({ itemid, name, priceCents, size }) => ({ itemid, name, priceCents, size })),
      address,
      paymentMethod: 'collection',
      card: null,
      history: [{ status: 'placed', at: order.placedAt, by: 'rider', note: null }],
    });
    expect(Math.abs(Date.parse(order.placedAt) - Date.now())).toBeLessThan(60_000);
    expect(await client.cart()).toEqual([]);

    const mails = await mailsTo(client.user?.email ?? '');
    expect(mails).toEqual([
      expect.objectContaining({ kind: 'order-confirmation', subject: `Your order ${order.number}`, state: 'waiting' }),
    ]);
    expect(mails[0]?.text_body).toContain('Collect your order at our yard');
  });

  it('charges flat shipping below the threshold and none from it, in integer cents', async () => {
    expect(priceOf('3')).toBeLessThan(shopShipping.freeFromCents);
    const below = await (await rider()).order('3');
    expect(below.money).toMatchObject({
      subtotalCents: priceOf('3'),
      shippingCents: shopShipping.flatCents,
      totalCents: priceOf('3') + shopShipping.flatCents,
    });
    const above = await (await rider()).order('1', '6');
    expect(above.money.subtotalCents).toBeGreaterThanOrEqual(shopShipping.freeFromCents);
    expect(above.money).toMatchObject({ shippingCents: 0, totalCents: above.money.subtotalCents });
  });

  it('numbers orders one after the other, PF-10001 onwards, never twice', async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) numbers.push(Number((await (await rider()).order('8')).number.slice(3)));
    expect(numbers[1]).toBe((numbers[0] ?? 0) + 1);
    expect(numbers[2]).toBe((numbers[0] ?? 0) + 2);
    expect(numbers[0]).toBeGreaterThanOrEqual(firstOrderNumber);
  });

  it('answers 409 order/cart-empty for an empty cart', async () => {
    const client = await rider();
    expectError(await client.placeOrder(), 409, 'order/cart-empty');
  });

  it('answers 409 order/cart-changed when the rows differ from those the rider saw, and orders nothing', async () => {
    const client = await rider();
    const one = await client.add('1');
    const two = await client.add('2');
    for (const cartItemIds of [[one.id], [one.id, two.id, crypto.randomUUID()], [one.id, one.id], []]) {
      expectError(await client.placeOrder({ cartItemIds }), 409, 'order/cart-changed');
    }
    // Another tab adds a row after the checkout page showed the cart.
    const seen = [one.id, two.id];
    await client.add('3');
    expectError(await client.placeOrder({ cartItemIds: seen }), 409, 'order/cart-changed');
    expect(await client.cart()).toHaveLength(3);
    expect((await client.json('GET', '/api/orders')).body.total).toBe(0);
  });

  it('makes one order of the same key sent ten times at once, and answers each with it', async () => {
    const client = await rider();
    await client.add('4');
    await client.add('5');
    const body = { idempotencyKey: orderKey() };
    const replies = await Promise.all(Array.from({ length: 10 }, () => client.placeOrder(body)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.body.order.number)).size).toBe(1);
    expect((await client.json('GET', '/api/orders')).body.total).toBe(1);
    // A retry later (after a dropped connection) gets the same order, though the cart is empty now.
    const later = await client.json('POST', '/api/orders', {
      address,
      paymentMethod: 'bank-transfer',
      idempotencyKey: body.idempotencyKey,
      cartItemIds: [],
      totalCents: replies[0]?.body.order.money.totalCents,
    });
    expect(later.status).toBe(200);
    expect(later.body.order.number).toBe(replies[0]?.body.order.number);
    expect(await mailsTo(client.user?.email ?? '')).toHaveLength(1);
  });

  it('makes one order of two checkouts racing over one cart; the other gets order/cart-empty', async () => {
    const client = await rider();
    await client.add('2');
    const [a, b] = await Promise.all([client.placeOrder(), client.placeOrder()]);
    expect([a?.status, b?.status].sort()).toEqual([201, 409]);
    expectError([a, b].find((r) => r?.status === 409) ?? a, 409, 'order/cart-empty');
  });

  it(`allows ${limits.ordersPerHour} orders an hour to a rider; then 429 order/too-many with Retry-After`, async () => {
    const client = await rider();
    for (let i = 0; i < limits.ordersPerHour; i++) await client.order('8');
    await client.add('8');
    const refused = await client.placeOrder();
    expectError(refused, 429, 'order/too-many');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another rider is not affected.
    await (await rider()).order('8');
  });

  it('places nothing when its e-mail cannot be written: order, cart and e-mail commit together', async () => {
    const client = await rider();
    await client.add('3');
    await server.db.kysely.schema.alterTable('outbox').renameTo('outbox_away').execute();
    try {
      const reply = await client.placeOrder();
      expectError(reply, 500, 'server/internal');
    } finally {
      await server.db.kysely.schema.alterTable('outbox_away').renameTo('outbox').execute();
    }
    expect(await client.cart()).toHaveLength(1);
    expect((await client.json('GET', '/api/orders')).body.total).toBe(0);
    expect((await client.placeOrder()).status).toBe(201);
  });

  it('empties every open cart page of the rider at once', async () => {
    const client = await rider();
    await client.add('7');
    const stream = await EventStream.open(client);
    try {
      await stream.next('snapshot');
      await client.order();
      expect(await stream.next('snapshot', 3000, 1)).toEqual({ type: 'snapshot', items: [] });
    } finally {
      stream.close();
    }
  });
});

describe('reading orders', () => {
  it("lists the rider's orders newest first, 50 to a page, and opens each", async () => {
    const client = await rider();
    const placed = [await client.order('1'), await client.order('2')];
    const list = await client.json('GET', '/api/orders');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      orders: [...placed].reverse().map(({ number, placedAt, status, itemCount, money, email }) => ({
        number,
        placedAt,
        status,
        itemCount,
        totalCents: money.totalCents,
        currency: money.currency,
        email,
      })),
      total: 2,
      more: false,
      newer: null,
      older: null,
    });
    for (const order of placed) {
      const one = await client.json('GET', `/api/orders/${order.number}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ order });
    }
    const oldest = parseOrderNumber(placed[0]?.number ?? '') as number;
    const older = (await client.json('GET', `/api/orders?before=${oldest}`)).body;
    expect(older).toMatchObject({ orders: [], total: 2, newer: oldest - 1, older: null });
  });

  it.each([
    ['before=0'],
    ['before=-1'],
    ['after=1.5'],
    ['before=x'],
    ['before=10001&before=10002'],
    ['before=2147483648'],
    ['before=10002&after=10001'],
    ['page=2'],
    ['size=10'],
  ])('refuses the query %s with 400 request/invalid-query', async (query) => {
    expectError(await (await rider()).json('GET', `/api/orders?${query}`), 400, 'request/invalid-query');
  });

  it("answers another rider's order exactly as a number that does not exist, by every route", async () => {
    const owner = await rider();
    const order = await owner.order('5');
    const stranger = await rider();
    await stranger.order('6');
    const numbers = [order.number, 'PF-99999999', 'PF-0', 'pf-10001', '10001', 'PF-1e3', 'x'.repeat(300)];
    // Beyond the database's integers: not found, never an error of the database.
    numbers.push('PF-2147483648', 'PF-99999999999', 'PF-999999999999999');
    for (const number of numbers) {
      expectError(await stranger.json('GET', `/api/orders/${number}`), 404, 'order/not-found');
      expectError(await stranger.json('POST', `/api/orders/${number}/cancel`), 404, 'order/not-found');
    }
    const list = await stranger.json('GET', '/api/orders');
    expect(list.body.orders.map((o: Order) => o.number)).not.toContain(order.number);
    expect((await owner.json('GET', `/api/orders/${order.number}`)).body.order.status).toBe('placed');
  });

  it('answers every order route 401 auth/unauthenticated without a session', async () => {
    const visitor = new Client(server.url);
    expectError(await visitor.json('GET', '/api/orders'), 401, 'auth/unauthenticated');
    expectError(await visitor.json('GET', '/api/orders/PF-10001'), 401, 'auth/unauthenticated');
    expectError(await visitor.json('POST', '/api/orders/PF-10001/cancel'), 401, 'auth/unauthenticated');
    const body = { address, paymentMethod: 'bank-transfer', idempotencyKey: orderKey(), cartItemIds: [] };
    expectError(await visitor.json('POST', '/api/orders', body), 401, 'auth/unauthenticated');
  });
});

describe('cancelling', () => {
  it('lets the rider cancel a placed order once: recorded, e-mailed; a second cancel is 409 order/invalid-transition', async () => {
    const client = await rider();
    const order = await client.order('4');
    const reply = await client.json('POST', `/api/orders/${order.number}/cancel`);
    expect(reply.status).toBe(200);
    expect(reply.body.order.status).toBe('cancelled');
    expect(reply.body.order.history).toEqual([
      order.history[0],
      { status: 'cancelled', at: expect.any(String), by: 'rider', note: null },
    ]);
    expectError(await client.json('POST', `/api/orders/${order.number}/cancel`), 409, 'order/invalid-transition');
    expect((await mailsTo(client.user?.email ?? '')).map((m) => m.kind)).toEqual([
      'order-confirmation',
      'order-cancelled',
    ]);
  });
});

describe('races', () => {
  /** `second` starts `round` tenths of a millisecond after `first`, so that some rounds land inside its transaction. */
  async function staggered<A, B>(round: number, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    const one = first();
    await new Promise((resolve) => setTimeout(resolve, (round % 20) / 10));
    return Promise.all([one, second()]);
  }

  it('an order and the removal of one of its rows, at once: never an order of a row the rider saw removed', async () => {
    for (let round = 0; round < 20; round++) {
      const client = await rider();
      const kept = await client.add('1');
      const removed = await client.add('2');
      const [placed, removal] = await staggered(
        round,
        () => client.placeOrder({ cartItemIds: [kept.id, removed.id] }),
        () => client.json('DELETE', `/api/cart/${removed.id}`),
      );
      if (placed.status === 201) {
        // The order came first: it has both rows, and the removal found nothing left to remove.
        expect(placed.body.order.lines).toHaveLength(2);
        expectError(removal, 404, 'cart/not-found');
      } else {
        expect(removal.status).toBe(204);
        expectError(placed, 409, 'order/cart-changed');
        expect((await client.cart()).map((item) => item.id)).toEqual([kept.id]);
      }
    }
    // Twenty rounds of sign-up (scrypt) and ordering: up to 20 s on two busy cores; the bound is thrice that.
  }, 60_000);

  it('an order and the deletion of the account, at once: one of them first, never a 500', async () => {
    for (let round = 0; round < 20; round++) {
      const client = await rider();
      await client.add('5');
      const [placed, deleted] = await staggered(
        round,
        () => client.placeOrder(),
        () => client.json('DELETE', '/api/account'),
      );
      expect(deleted.status).toBe(204);
      // The deletion first: the session or the cart is gone by the time the order is placed.
      if (placed.status === 401) expectError(placed, 401, 'auth/unauthenticated');
      else if (placed.status === 409) expectError(placed, 409, 'order/cart-empty');
      else expect(placed.status).toBe(201);
    }
    // Twenty rounds of sign-up (scrypt) and ordering: up to 20 s on two busy cores; the bound is thrice that.
  }, 60_000);

  it('two cancels of one order at once: one cancels, the other is told it cannot, on either database', async () => {
    for (let round = 0; round < 5; round++) {
      const client = await rider();
      const { number } = await client.order('6');
      const replies = await Promise.all([1, 2].map(() => client.json('POST', `/api/orders/${number}/cancel`)));
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = replies.find((r) => r.status === 409);
      if (refused) expectError(refused, 409, 'order/invalid-transition');
    }
  });
});

describe('bad input', () => {
  const fieldCases: Array<[string, Record<string, unknown>]> = [
    ['a missing full name', { fullName: '' }],
    ['a full name of spaces', { fullName: '   ' }],
    ['a full name too long', { fullName: 'x'.repeat(101) }],
    ['a full name with a line break', { fullName: 'Ada\r\nBcc: x@example.com' }],
    ['a missing address line', { line1: '' }],
    ['an address line too long', { line1: 'x'.repeat(101) }],
    ['a second line too long', { line2: 'x'.repeat(101) }],
    ['a missing city', { city: '' }],
    ['a missing region', { region: '' }],
    ['a missing postal code', { postalCode: '' }],
    ['a postal code with symbols', { postalCode: '334<14>' }],
    ['an unknown country', { country: 'XX' }],
    ['a country name', { country: 'United States' }],
    ['a phone with letters', { phone: 'call me' }],
    ['a number for the name', { fullName: 42 }],
    ['a bidi override in the city', { city: 'Wel\u202Elington' }],
  ];
  it.each(fieldCases)('refuses %s with 400 order/invalid-address, ordering nothing', async (_, change) => {
    const client = await rider();
    await client.add('1');
    const reply = await client.placeOrder({ address: { ...address, ...change } });
    expectError(reply, 400, 'order/invalid-address');
    expect(await client.cart()).toHaveLength(1);
  });

  it.each([['card'], [''], [null], [42]])(
    'refuses the payment method %j with 400 order/invalid-payment-method',
    async (paymentMethod) => {
      const client = await rider();
      await client.add('1');
      expectError(await client.placeOrder({ paymentMethod }), 400, 'order/invalid-payment-method');
    },
  );

  it.each([
    ['an unknown field', { discountCents: 1 }],
    ['a price in a line', { lines: [{ itemid: '1', priceCents: 1 }] }],
    ['a short key', { idempotencyKey: 'abc' }],
    ['a key with symbols', { idempotencyKey: `${'a'.repeat(20)}<>` }],
    ['a key too long', { idempotencyKey: 'a'.repeat(65) }],
    ['too many ids', { cartItemIds: Array.from({ length: limits.cartMaxRows + 1 }, () => 'id') }],
    ['an id too long', { cartItemIds: ['x'.repeat(65)] }],
    ['ids that are not a list', { cartItemIds: 'all' }],
    ['an unknown address field', { address: { ...address, company: 'ACME' } }],
  ])('refuses %s with 400 request/invalid-body', async (_, change) => {
    const client = await rider();
    await client.add('1');
    expectError(await client.placeOrder(change), 400, 'request/invalid-body');
    expect(await client.cart()).toHaveLength(1);
  });

  it('refuses an order without the total the rider was shown, or with another, charging nothing', async () => {
    const client = await rider();
    await client.add('1');
    const total = await client.quotedTotal({ address, paymentMethod: 'bank-transfer' });
    expect(total).toBeGreaterThan(0);
    expectError(
      await client.placeOrder({ totalCents: undefined }),
      400,
      'request/invalid-body',
      'totalCents: totalCents is required: the total the rider was shown (GET /api/checkout/quote).',
    );
    expectError(await client.placeOrder({ totalCents: total - 1 }), 409, 'order/cart-changed');
    expectError(await client.placeOrder({ totalCents: '1' }), 400, 'request/invalid-body');
    expect(await client.cart()).toHaveLength(1);
    expect((await client.placeOrder({ totalCents: total })).status).toBe(201);
  });

  it('accepts an address without its optional fields, trimmed', async () => {
    const client = await rider();
    await client.add('1');
    const { line2: _line2, phone: _phone, ...required } = address;
    const reply = await client.placeOrder({ address: { ...required, fullName: '  Ada Rider ' } });
    expect(reply.status).toBe(201);
    expect(reply.body.order.address).toEqual({ ...address, line2: '', phone: '' });
  });
});

describe('deleting the account', () => {
  it('keeps the orders, detached, with the e-mail and address they were placed with; a new account of that e-mail does not see them', async () => {
    const client = await rider();
    const email = client.user?.email ?? '';
    const order = await client.order('2');
    expect((await client.json('DELETE', '/api/account')).status).toBe(204);
    const row = await server.db.kysely
      .selectFrom('shop_order')
      .select(['uid', 'email', 'full_name', 'total_cents'])
      .where('number', '=', Number(order.number.slice(3)))
      .executeTakeFirst();
    expect(row).toEqual({ uid: null, email, full_name: address.fullName, total_cents: order.money.totalCents });
    const again = new Client(server.url);
    await again.signupConfirmed(email);
    expect((await again.json('GET', '/api/orders')).body.total).toBe(0);
    expectError(await again.json('GET', `/api/orders/${order.number}`), 404, 'order/not-found');
  });
});
