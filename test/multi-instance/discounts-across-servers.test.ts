import { describe, expect, it } from 'vitest';
import { Client, sameBrowserOn } from '../support/client';
import { createDiscount, listed, placeWith, raceForTheLastUse, ridersWithARow } from '../support/discounts';
import { twoServersOnOneSchema } from '../support/two-servers';

/** A code's count across two servers on one PostgreSQL schema, as behind a load balancer. */
const servers = twoServersOnOneSchema({ owner: true });

describe('a discount code on two servers', () => {
  it('twenty rounds of riders through both servers at once for the last use: exactly one discounted order each', async () => {
    const riders = await ridersWithARow([servers.a.url, servers.b.url], 6);
    for (let round = 0; round < 20; round++) await raceForTheLastUse(servers.owner, riders);
  }, 120_000);

  it('an order cancelled on A and on B at the same moment gives its use back once', async () => {
    for (let round = 0; round < 5; round++) {
      const discount = await createDiscount(servers.owner, { maxUses: 1 });
      const rider = new Client(servers.a.url);
      await rider.signupConfirmed();
      await rider.add('1');
      const placed = await placeWith(rider, discount.code);
      expect(placed.status).toBe(201);
      const number = placed.body.order.number;
      const [onA, onB] = await Promise.all([
        rider.json('POST', `/api/orders/${number}/cancel`),
        sameBrowserOn(servers.b.url, servers.owner).json('POST', `/api/admin/orders/${number}/moves`, {
          to: 'cancelled',
          from: 'placed',
        }),
      ]);
      expect([onA.status, onB.status].sort()).toEqual([200, 409]);
      expect((await listed(servers.owner, discount.id))?.uses).toBe(0);
    }
  }, 60_000);
});
