import { beforeAll, describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { shopDay } from '../../src/server/discounts/discount-store';
import { discountLimits } from '../../src/shared/discounts';
import { formatCents } from '../../src/shared/money';
import { Client, confirmedRider, todaysShipping } from '../support/client';
import {
  createDiscount,
  freshCode,
  listed,
  placeWith,
  quoteWith,
  raceForTheLastUse,
  ridersWithARow,
} from '../support/discounts';
import { expectError } from '../support/expect-error';
import { standard, untaxed } from '../support/money';
import type { TestServer } from '../support/server';
import { shopWithOwner } from '../support/shop-with-owner';

// One shop and its owner for the file's tests (test/support/shop-with-owner.ts).
const shop = shopWithOwner();
let server: TestServer;
let owner: Client;
beforeAll(() => {
  ({ server, owner } = shop);
});

const priceOf = (itemid: string) => catalogue.find((p) => p.itemid === itemid)?.priceCents ?? Number.NaN;
const flat = todaysShipping.flatCents;
const dayOffset = (days: number) => shopDay(Date.now() + days * 24 * 60 * 60 * 1000, newShopSettings.format.timeZone);

/** A rider with product 1 in the cart. */
async function riderWithRow(itemid = '1'): Promise<Client> {
  const client = await confirmedRider(server.url);
  await client.add(itemid);
  return client;
}

describe("the owner's discount codes", () => {
  it('are for owners only', async () => {
    const rider = await riderWithRow();
    expectError(await rider.json('GET', '/api/admin/discounts'), 403, 'auth/forbidden');
    expectError(await new Client(server.url).json('GET', '/api/admin/discounts'), 401, 'auth/unauthenticated');
    const discount = await createDiscount(owner);
    expectError(
      await rider.json('PUT', `/api/admin/discounts/${discount.id}/enabled`, { enabled: false }),
      403,
      'auth/forbidden',
    );
  });

  it('are made with what they give and their limits, listed with their uses, and refused field by field', async () => {
    const code = freshCode('Spring');
    const made = await createDiscount(owner, {
      code,
      gives: { kind: 'amount', amountCents: 1500 },
      minSubtotalCents: 5000,
      firstDay: '2026-03-01',
      lastDay: '2026-05-31',
      maxUses: 40,
      oncePerRider: true,
    });
    expect(await listed(owner, made.id)).toEqual({ ...made, uses: 0, enabled: true });
    expect(made).toMatchObject({ code, minSubtotalCents: 5000, maxUses: 40, oncePerRider: true });

    const taken = await owner.json('POST', '/api/admin/discounts', {
      code: code.toUpperCase(),
      gives: { kind: 'free-shipping' },
      minSubtotalCents: null,
      firstDay: null,
      lastDay: null,
      maxUses: null,
      oncePerRider: false,
    });
    expectError(taken, 409, 'discount/code-taken');
    expect(taken.body.field).toBe('code');

    const form = { code: freshCode(), gives: { kind: 'percent', percent: 10 }, minSubtotalCents: null };
    const rest = { firstDay: null, lastDay: null, maxUses: null, oncePerRider: false };
    const fieldOf = async (changes: Record<string, unknown>) => {
      const reply = await owner.json('POST', '/api/admin/discounts', { ...form, ...rest, ...changes });
      expectError(reply, 400, 'discount/form-invalid');
      return reply.body.field;
    };
    expect(await fieldOf({ code: 'spring-10' })).toBe('code');
    expect(await fieldOf({ code: 'ab' })).toBe('code');
    expect(await fieldOf({ gives: { kind: 'percent', percent: 101 } })).toBe('gives.percent');
    expect(await fieldOf({ gives: { kind: 'amount', amountCents: 0 } })).toBe('gives.amountCents');
    expect(await fieldOf({ gives: { kind: 'half-off' } })).toBe('gives.kind');
    expect(await fieldOf({ firstDay: '2026-02-30' })).toBe('firstDay');
    expect(await fieldOf({ firstDay: '2026-06-01', lastDay: '2026-05-31' })).toBe('lastDay');
    expect(await fieldOf({ maxUses: 0 })).toBe('maxUses');
  });

  it('are switched off and on, and a switch of no code is refused', async () => {
    const discount = await createDiscount(owner);
    const rider = await riderWithRow();
    const off = await owner.json('PUT', `/api/admin/discounts/${discount.id}/enabled`, { enabled: false });
    expect(off.body.discount.enabled).toBe(false);
    expectError(await quoteWith(rider, discount.code), 404, 'discount/invalid', 'This code is not valid.');
    await owner.json('PUT', `/api/admin/discounts/${discount.id}/enabled`, { enabled: true });
    expect((await quoteWith(rider, discount.code)).status).toBe(200);
    expectError(
      await owner.json('PUT', '/api/admin/discounts/no-such-code/enabled', { enabled: true }),
      404,
      'discount/not-found',
    );
  });
});

describe('what a code gives', () => {
  it('a percentage off the goods, before shipping, whatever the case it is typed in; the order keeps code and amount', async () => {
    const discount = await createDiscount(owner, { gives: { kind: 'percent', percent: 15 } });
    const rider = await riderWithRow('3');
    const off = Math.floor((priceOf('3') * 15 + 50) / 100);
    const quote = await quoteWith(rider, discount.code.toLowerCase());
    expect(quote.body.money).toEqual(
      untaxed({
        subtotalCents: priceOf('3'),
        adjustments: [{ label: `Discount ${discount.code}`, amountCents: -off, code: discount.code }],
        shippingCents: flat,
        shippingMethod: standard,
        totalCents: priceOf('3') - off + flat,
      }),
    );
    const placed = await placeWith(rider, discount.code.toUpperCase());
    expect(placed.status).toBe(201);
    expect(placed.body.order.money.adjustments).toEqual(quote.body.money.adjustments);
    expect(placed.body.order.money.totalCents).toBe(quote.body.money.totalCents);
    const again = await rider.json('GET', `/api/orders/${placed.body.order.number}`);
    expect(again.body.order.money.adjustments).toEqual(quote.body.money.adjustments);
    expect((await listed(owner, discount.id))?.uses).toBe(1);
  });

  it('an amount off larger than the goods takes them to zero, never below; shipping is still charged', async () => {
    const discount = await createDiscount(owner, { gives: { kind: 'amount', amountCents: priceOf('1') + 10_000 } });
    const rider = await riderWithRow('1');
    const { money } = (await quoteWith(rider, discount.code)).body;
    expect(money.adjustments).toEqual([
      { label: `Discount ${discount.code}`, amountCents: -priceOf('1'), code: discount.code },
    ]);
    expect(money.totalCents).toBe(flat);
    expect((await placeWith(rider, discount.code)).body.order.money.totalCents).toBe(flat);
  });

  it("free shipping sets the chosen delivery's price to zero and leaves the goods as they are", async () => {
    const discount = await createDiscount(owner, { gives: { kind: 'free-shipping' } });
    const rider = await riderWithRow('1');
    const { money } = (await quoteWith(rider, discount.code)).body;
    expect(money).toEqual(
      untaxed({
        subtotalCents: priceOf('1'),
        adjustments: [{ label: `Discount ${discount.code} (free shipping)`, amountCents: 0, code: discount.code }],
        shippingCents: 0,
        shippingMethod: standard,
        totalCents: priceOf('1'),
      }),
    );
    expect((await placeWith(rider, discount.code)).body.order.money.shippingCents).toBe(0);
  });
});

describe("a code's limits", () => {
  it('an unknown code is not valid', async () => {
    const rider = await riderWithRow();
    expectError(await quoteWith(rider, 'NoSuchCode1'), 404, 'discount/invalid', 'This code is not valid.');
  });

  it('a minimum subtotal names the amount', async () => {
    const discount = await createDiscount(owner, { minSubtotalCents: priceOf('1') + 1 });
    const rider = await riderWithRow('1');
    const needs = `This code needs an order of at least ${formatCents(priceOf('1') + 1, newShopSettings.format)}.`;
    expectError(await quoteWith(rider, discount.code), 409, 'discount/minimum', needs);
    await rider.add('1');
    expect((await quoteWith(rider, discount.code)).status).toBe(200);
  });

  it("a first and a last day, in the shop's time zone, both included", async () => {
    const rider = await riderWithRow();
    const today = dayOffset(0);
    const current = await createDiscount(owner, { firstDay: today, lastDay: today });
    expect((await quoteWith(rider, current.code)).status).toBe(200);
    const past = await createDiscount(owner, { firstDay: dayOffset(-10), lastDay: dayOffset(-2) });
    expectError(await quoteWith(rider, past.code), 410, 'discount/expired', 'This code has expired.');
    const coming = await createDiscount(owner, { firstDay: dayOffset(2) });
    expectError(await quoteWith(rider, coming.code), 404, 'discount/invalid', 'This code is not valid.');
  });

  it('a total number of uses: once used up, Apply says so, and an order with it is refused and keeps its cart', async () => {
    const discount = await createDiscount(owner, { maxUses: 1 });
    const first = await riderWithRow();
    const second = await riderWithRow();
    const applied = await quoteWith(second, discount.code);
    expect(applied.status).toBe(200);
    expect((await placeWith(first, discount.code)).status).toBe(201);
    expectError(await quoteWith(second, discount.code), 409, 'discount/used-up', 'This code has been used up.');
    const refused = await second.placeOrder({ discountCode: discount.code, totalCents: applied.body.money.totalCents });
    expectError(refused, 409, 'order/discount-unavailable', /^This code has been used up\. /);
    expect(refused.body.reason).toBe('discount/used-up');
    expect(await second.cart()).toHaveLength(1);
    expect((await listed(owner, discount.id))?.uses).toBe(1);
  });

  it("'Once per rider' counts by e-mail address, across deleting the account and signing up again", async () => {
    const discount = await createDiscount(owner, { oncePerRider: true });
    const rider = await riderWithRow();
    const email = rider.user?.email as string;
    expect((await placeWith(rider, discount.code)).status).toBe(201);
    await rider.add('1');
    expectError(
      await quoteWith(rider, discount.code),
      409,
      'discount/already-used',
      'You have already used this code.',
    );
    expect((await rider.json('DELETE', '/api/account')).status).toBe(204);

    const again = new Client(server.url);
    await again.signupConfirmed(email);
    await again.add('1');
    expectError(await quoteWith(again, discount.code), 409, 'discount/already-used');
    const refused = await again.placeOrder({ discountCode: discount.code });
    expectError(refused, 409, 'order/discount-unavailable', /^You have already used this code\. /);
    expect(refused.body.reason).toBe('discount/already-used');
    // Another rider may still use it.
    expect((await placeWith(await riderWithRow(), discount.code)).status).toBe(201);
    expect((await listed(owner, discount.id))?.uses).toBe(2);
  });
});

describe('a cancelled order gives its use back', () => {
  it('once, when the rider and the owner cancel at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const discount = await createDiscount(owner, { maxUses: 1, oncePerRider: true });
      const rider = await riderWithRow();
      const placed = await placeWith(rider, discount.code);
      expect(placed.status).toBe(201);
      const number = placed.body.order.number;
      const [byRider, byOwner] = await Promise.all([
        rider.json('POST', `/api/orders/${number}/cancel`),
        owner.json('POST', `/api/admin/orders/${number}/moves`, { to: 'cancelled', from: 'placed' }),
      ]);
      expect([byRider.status, byOwner.status].sort()).toEqual([200, 409]);
      expect((await listed(owner, discount.id))?.uses).toBe(0);
      // The rider may use it again, and so the last use is taken again.
      await rider.add('1');
      expect((await placeWith(rider, discount.code)).status).toBe(201);
      expect((await listed(owner, discount.id))?.uses).toBe(1);
    }
  }, 60_000);
});

describe('the race for the last use', () => {
  it('twenty rounds of riders ordering at once with a code of one use: exactly one discounted order each', async () => {
    const riders = await ridersWithARow([server.url], 6);
    for (let round = 0; round < 20; round++) await raceForTheLastUse(owner, riders);
  }, 120_000);
});

describe('guessing codes', () => {
  it('is throttled per account: codes that do not exist count, good ones and used-up ones do not', async () => {
    const good = await createDiscount(owner);
    const usedUp = await createDiscount(owner, { maxUses: 1 });
    expect((await placeWith(await riderWithRow(), usedUp.code)).status).toBe(201);
    const rider = await riderWithRow();
    for (let i = 0; i < 5; i++) {
      expect((await quoteWith(rider, good.code)).status).toBe(200);
      expectError(await quoteWith(rider, usedUp.code), 409, 'discount/used-up');
    }
    for (let i = 0; i < discountLimits.guessesPerAccount; i++) {
      expectError(await quoteWith(rider, `Guess${i}x`), 404, 'discount/invalid');
    }
    const refused = await quoteWith(rider, good.code);
    expectError(refused, 429, 'discount/too-many-attempts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expectError(await rider.placeOrder({ discountCode: good.code }), 429, 'discount/too-many-attempts');
    // Without a code the rider still orders.
    expect((await rider.placeOrder()).status).toBe(201);
  });

  it('is throttled per client address, whichever account tries', async () => {
    const place = `127.200.${Math.floor(Math.random() * 200)}.9`;
    const tried = async (count: number) => {
      const client = await confirmedRider(server.url, place);
      await client.add('1');
      for (let i = 0; i < count; i++) expectError(await quoteWith(client, `Guess${i}y`), 404, 'discount/invalid');
      return client;
    };
    const per = discountLimits.guessesPerAccount;
    for (let left = discountLimits.guessesPerAddress; left > 0; left -= per) await tried(Math.min(per, left));
    const next = await tried(0);
    expectError(await quoteWith(next, 'Guess0z'), 429, 'discount/too-many-attempts');
  });
});
