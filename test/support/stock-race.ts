import { expect } from 'vitest';
import type { StockStore } from '../../src/server/stock/stock-store';
import { Client } from './client';

/** The size every rider of the race wants. */
const wanted = { itemid: '2', size: '17.5"' } as const;

/**
 * Riders, each signed up on one of `urls` in turn (as behind a load balancer), each with one row of the same size in
 * the cart.
 */
export async function ridersWantingOneSize(urls: readonly string[], count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = new Client(urls[i % urls.length] as string);
      await client.signupConfirmed();
      await client.add(wanted.itemid, wanted.size);
      return client;
    }),
  );
}

/**
 * One round of the race: `stock` left of the size, and every rider places the order at once. Checks the exact counts
 * (`stock` orders, the rest `order/sold-out`, nothing else, stock 0 after) and leaves every rider with one row of the
 * size again for the next round.
 */
export async function raceForTheLastUnits(riders: readonly Client[], stock: StockStore, left: number): Promise<void> {
  await stock.set(left, wanted);
  const replies = await Promise.all(riders.map((rider) => rider.placeOrder()));
  const outcomes: Record<string, number> = {};
  for (const reply of replies) {
    const outcome = reply.status === 201 ? '201' : `${reply.status} ${reply.body?.code}`;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  expect(outcomes).toEqual({ '201': left, '409 order/sold-out': riders.length - left });
  expect((await stock.sizesOf(wanted.itemid)).find((s) => s.size === wanted.size)?.stock).toBe(0);
  // The winners' carts are empty; the others still hold their row.
  await stock.set(1, wanted);
  await Promise.all(
    riders.map(async (rider, i) => {
      if (replies[i]?.status === 201) await rider.add(wanted.itemid, wanted.size);
      expect(await rider.cart()).toHaveLength(1);
    }),
  );
}
