import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client, sameBrowserOn } from '../support/client';
import { createDiscount, listed, placeWith, raceForTheLastUse, ridersWithARow } from '../support/discounts';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

/** A code's count across two servers on one PostgreSQL schema, as behind a load balancer. */
let schema: TestSchema;
let a: TestServer;
let b: TestServer;
let owner: Client;

beforeAll(async () => {
  schema = await createTestSchema();
  a = await startTestServer({}, { schema, name: 'a' });
  b = await startTestServer({}, { schema, name: 'b' });
  owner = new Client(a.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(a.db).grant(email);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await schema?.drop();
});

describe('a discount code on two servers', () => {
  it('twenty rounds of riders through both servers at once for the last use: exactly one discounted order each', async () => {
    const riders = await ridersWithARow([a.url, b.url], 6);
    for (let round = 0; round < 20; round++) await raceForTheLastUse(owner, riders);
  }, 120_000);

  it('an order cancelled on A and on B at the same moment gives its use back once', async () => {
    for (let round = 0; round < 5; round++) {
      const discount = await createDiscount(owner, { maxUses: 1 });
      const rider = new Client(a.url);
      await rider.signupConfirmed();
      await rider.add('1');
      const placed = await placeWith(rider, discount.code);
      expect(placed.status).toBe(201);
      const number = placed.body.order.number;
      const [onA, onB] = await Promise.all([
        rider.json('POST', `/api/orders/${number}/cancel`),
        sameBrowserOn(b.url, owner).json('POST', `/api/admin/orders/${number}/moves`, {
          to: 'cancelled',
          from: 'placed',
        }),
      ]);
      expect([onA.status, onB.status].sort()).toEqual([200, 409]);
      expect((await listed(owner, discount.id))?.uses).toBe(0);
    }
  }, 60_000);
});
