import { afterAll, expect, it } from 'vitest';
import { Client, confirmedRider } from '../support/client';
import { startTestServer } from '../support/server';
import { createDatabase, type TestDatabase, undoOrderMoney } from '../support/test-database';

/**
 * Migration 0012 on a shop that has orders (docs/decisions/0032-an-orders-money.md): the shop is made with this
 * version, taken back to the subtotal and shipping in columns of their own, and started again.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

it("keeps every order's money and delivery as they were, read through the API", async () => {
  database = await createDatabase();
  const before = await startTestServer({ DATABASE_URL: database.url });
  const rider = await confirmedRider(before.url);
  // One below the free-shipping threshold, one above it, and one paid on collection (so collected).
  await rider.add('8');
  const collected = await rider.placeOrder({ paymentMethod: 'collection' });
  const orders = [await rider.order('3'), await rider.order('1', '6'), collected.body.order];
  expect(orders.map((order) => order.money.shippingCents > 0)).toEqual([true, false, false]);
  await before.stop();

  await undoOrderMoney(database, orders);
  const after = await startTestServer({ DATABASE_URL: database.url });
  try {
    const again = new Client(after.url);
    expect((await again.login(rider.user?.email ?? '', 'secret1')).status).toBe(200);
    // An order from before 0012 kept no delivery method (that came with the zones, docs/product.md §18).
    for (const {
      money: { shippingMethod: _, ...money },
      ...order
    } of orders) {
      expect((await again.json('GET', `/api/orders/${order.number}`)).body.order).toEqual({ ...order, money });
    }
    // Numbering goes on from the last order (0013 moves PostgreSQL's sequence to a counter row).
    const last = Math.max(...orders.map((order) => Number(order.number.replace(/^\D+/, ''))));
    expect((await again.order('8')).number).toMatch(new RegExp(`-${last + 1}$`));
  } finally {
    await after.stop();
  }
});
