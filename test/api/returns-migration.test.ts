import { afterAll, expect, it } from 'vitest';
import { confirmedRider } from '../support/client';
import { startTestServer } from '../support/server';
import { serverWithOwner } from '../support/shop-with-owner';
import { createDatabase, type TestDatabase, undoReturns } from '../support/test-database';

/**
 * Migration 0041 on a shop that has orders (docs/decisions/0064-returns.md): an order cancelled before it was paid, one
 * cancelled after, one paid and kept. Taken back to before returns and started again, the shop keeps one refund, the
 * whole order's, for the one cancelled after it was paid, with its credit note, on the cancel's moment; its settings
 * gain their returns and reports.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

interface RefundRow {
  order_number: number | string;
  seq: number | string;
  at: number | string;
  amount_cents: number | string;
  refunded_cents: number | string;
  paid_cents: number | string;
  credit_note: string | null;
  return_number: string | null;
}

const refundsOf = (db: TestDatabase) =>
  db.query<RefundRow>(
    'select order_number, seq, at, amount_cents, refunded_cents, paid_cents, credit_note, return_number from refund order by order_number',
  );

it('keeps the refund of every order cancelled after it was paid, once', { timeout: 60_000 }, async () => {
  database = await createDatabase();
  const { server: first, owner } = await serverWithOwner({ DATABASE_URL: database.url });
  const rider = await confirmedRider(first.url);
  const move = (number: string, from: string, to: string) =>
    owner.json('POST', `/api/admin/orders/${number}/moves`, { from, to });
  const unpaid = await rider.order('1');
  expect((await move(unpaid.number, 'placed', 'cancelled')).status).toBe(200);
  const refunded = await rider.order('2', '3');
  expect((await move(refunded.number, 'placed', 'paid')).status).toBe(200);
  const cancelled = await move(refunded.number, 'paid', 'cancelled');
  expect(cancelled.status).toBe(200);
  const kept = await rider.order('4');
  expect((await move(kept.number, 'placed', 'paid')).status).toBe(200);
  // This version keeps the cancel's refund as it is made: the migration must make the same row.
  const live = await refundsOf(database);
  expect(live).toHaveLength(1);
  expect(live[0]).toMatchObject({
    order_number: Number(refunded.number.slice(3)),
    credit_note: cancelled.body.order.creditNote,
    return_number: null,
  });
  await first.stop();

  await undoReturns(database);
  const [settings] = await database.query<{ document: string }>('select document from shop_settings');
  expect(JSON.parse(settings?.document ?? '{}').returns).toBeUndefined();
  const after = await startTestServer({ DATABASE_URL: database.url });
  await after.stop();
  const migrated = await refundsOf(database);
  const asNumbers = (rows: RefundRow[]) =>
    rows.map((row) => ({
      ...row,
      order_number: Number(row.order_number),
      seq: Number(row.seq),
      at: Number(row.at),
      amount_cents: Number(row.amount_cents),
      refunded_cents: Number(row.refunded_cents),
      paid_cents: Number(row.paid_cents),
    }));
  expect(asNumbers(migrated)).toEqual(asNumbers(live));
  expect(asNumbers(migrated)[0]?.amount_cents).toBe(refunded.money.totalCents);
  const [now] = await database.query<{ document: string }>('select document from shop_settings');
  expect(JSON.parse(now?.document ?? '{}')).toMatchObject({
    returns: { days: 30, address: null },
    reports: { lowStock: 2 },
  });
});
