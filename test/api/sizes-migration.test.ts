import { afterAll, expect, it } from 'vitest';
import { Client, confirmedRider } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer } from '../support/server';
import { createDatabase, type TestDatabase, undoOrderMoney } from '../support/test-database';

/**
 * Migration 0007 on a shop that has carts and orders (docs/product.md §12): the shop is made with this version, then
 * taken back to what it was before 0007 (no sizes table, no size columns, nor what later migrations added), and
 * started again.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

it('keeps the carts and orders of a shop from before sizes: readable, without a size', async () => {
  database = await createDatabase();
  const before = await startTestServer({ DATABASE_URL: database.url });
  const rider = await confirmedRider(before.url);
  const order = await rider.order('1', '6');
  const row = await rider.add('3');
  await before.stop();

  // Back before the later migrations first (0019, invoices; 0017, finding products; 0016, products' weights; 0015, the shop's settings; 0014, outbox attachments; 0013, gapless counters, and 0012, an order's money; 0011, passkeys; 0010, confirmed addresses; 0009,
  // the owner's catalogue; 0008, card payments), then before 0007.
  await undoOrderMoney(database, [order]);
  await database.query('drop index passkey_credential_id_unique');
  await database.query("delete from piaffe_migration where name = '0011-passkeys'");
  await database.query('drop table email_confirmation');
  await database.query("delete from piaffe_migration where name = '0010-email-confirmation'");
  for (const table of ['picture', 'product_change', 'product']) await database.query(`drop table ${table}`);
  await database.query('drop index product_size_key');
  await database.query('alter table product_size drop column key');
  await database.query('alter table order_line drop column size_key');
  await database.query("delete from piaffe_migration where name = '0009-owners-catalogue'");
  for (const table of ['stripe_event', 'card_session']) await database.query(`drop table ${table}`);
  for (const column of ['payment_id', 'refund_id', 'refund_started_at', 'card_lease_until']) {
    await database.query(`alter table shop_order drop column ${column}`);
  }
  await database.query("delete from piaffe_migration where name = '0008-card-payments'");
  for (const table of ['cart_item', 'order_line']) await database.query(`alter table ${table} drop column size`);
  await database.query('drop table product_size');
  await database.query("delete from piaffe_migration where name = '0007-sizes-and-stock'");

  const after = await startTestServer({ DATABASE_URL: database.url }, { seededStock: true });
  try {
    const again = new Client(after.url);
    expect((await again.login(rider.user?.email ?? '', 'secret1')).status).toBe(200);
    expect(await again.cart()).toEqual([{ ...row, size: null }]);
    const read = await again.json('GET', `/api/orders/${order.number}`);
    expect(read.body.order.lines).toEqual(order.lines.map((line) => ({ ...line, size: null })));
    // The row without a size cannot be ordered until the rider adds it again in a size.
    const refused = await again.placeOrder();
    expectError(refused, 409, 'order/size-missing');
    expect(refused.body.rows).toEqual([row.id]);
    // The new shop's sizes are there, with their first stock.
    expect((await after.stock.sizesOf('3')).map((s) => s.stock)).toEqual([5, 5, 5, 5, 5, 5]);
  } finally {
    await after.stop();
  }
});
