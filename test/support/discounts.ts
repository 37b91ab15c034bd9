import { expect } from 'vitest';
import type { Discount, NewDiscount } from '../../src/shared/discounts';
import { Client, type Reply } from './client';

let made = 0;

/** A code no other test uses: letters and digits. */
export function freshCode(prefix = 'Code'): string {
  made += 1;
  return `${prefix}${Date.now().toString(36)}${made}`;
}

/** The owner's new code: 10% off, no limits, unless `changes` say otherwise. */
export async function createDiscount(owner: Client, changes: Partial<NewDiscount> = {}): Promise<Discount> {
  const reply = await owner.json('POST', '/api/admin/discounts', {
    code: freshCode(),
    gives: { kind: 'percent', percent: 10 },
    minSubtotalCents: null,
    firstDay: null,
    lastDay: null,
    maxUses: null,
    oncePerRider: false,
    ...changes,
  });
  if (reply.status !== 201) throw new Error(`creating a code failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.discount;
}

/** The code as the owner's list shows it now. */
export async function listed(owner: Client, id: string): Promise<Discount | undefined> {
  const reply = await owner.json('GET', '/api/admin/discounts');
  return (reply.body.discounts as Discount[]).find((discount) => discount.id === id);
}

/** 'Apply': the checkout's quote with the code. */
export function quoteWith(client: Client, code: string, delivery = 'shipping'): Promise<Reply> {
  return client.json('GET', `/api/checkout/quote?delivery=${delivery}&discountCode=${encodeURIComponent(code)}`);
}

/** 'Place order' with the code and the total its quote showed. */
export async function placeWith(client: Client, code: string): Promise<Reply> {
  const quote = await quoteWith(client, code);
  return client.placeOrder({
    discountCode: code,
    ...(quote.status === 200 ? { totalCents: quote.body.money.totalCents } : {}),
  });
}

/**
 * One round of the race for a code's last use: a new code with one use, and every rider (each with a row in the
 * cart) places an order with it at once. Exactly one order is placed; every other is refused with
 * `order/discount-unavailable` and keeps its cart; the code counts one use. The winner gets a row again.
 */
export async function raceForTheLastUse(owner: Client, riders: readonly Client[]): Promise<void> {
  const discount = await createDiscount(owner, { maxUses: 1 });
  const totals = await Promise.all(
    riders.map(async (rider) => (await quoteWith(rider, discount.code)).body.money.totalCents as number),
  );
  const replies = await Promise.all(
    riders.map((rider, i) => rider.placeOrder({ discountCode: discount.code, totalCents: totals[i] })),
  );
  const outcomes: Record<string, number> = {};
  for (const reply of replies) {
    const outcome = reply.status === 201 ? '201' : `${reply.status} ${reply.body?.code} ${reply.body?.reason}`;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  expect(outcomes).toEqual({
    '201': 1,
    '409 order/discount-unavailable discount/used-up': riders.length - 1,
  });
  expect((await listed(owner, discount.id))?.uses).toBe(1);
  await Promise.all(
    riders.map(async (rider, i) => {
      if (replies[i]?.status === 201) await rider.add('1');
      expect(await rider.cart()).toHaveLength(1);
    }),
  );
}

/** Riders with one row in the cart each, signed up through `urls` in turn (as behind a load balancer). */
export async function ridersWithARow(urls: readonly string[], count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = new Client(urls[i % urls.length] as string);
      await client.signupConfirmed();
      await client.add('1');
      return client;
    }),
  );
}
