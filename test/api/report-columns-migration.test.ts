import { afterAll, expect, it } from 'vitest';
import { address, confirmedRider } from '../support/client';
import { startTestServer } from '../support/server';
import { serverWithOwner } from '../support/shop-with-owner';
import { createDatabase, type TestDatabase, undoReportColumns } from '../support/test-database';

/**
 * Migration 0042 on a shop that has orders (docs/decisions/0066-reports-at-size.md): taken back to before it and
 * started again, the shop's orders, lines and documents gain exactly the copies this version writes as it places
 * orders and issues documents (each order's shipping, each line's instant, each document's tax lines with the
 * order's place, a credit note's negative).
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

const copiesOf = async (db: TestDatabase) => ({
  orders: (
    await db.query<{ number: unknown; shipping_cents: unknown }>(
      'select number, shipping_cents from shop_order order by number',
    )
  ).map((row) => [Number(row.number), Number(row.shipping_cents)]),
  lines: (
    await db.query<{ order_number: unknown; position: unknown; placed_at: unknown }>(
      'select order_number, position, placed_at from order_line order by order_number, position',
    )
  ).map((row) => [Number(row.order_number), Number(row.position), Number(row.placed_at)]),
  taxes: (
    await db.query<{ document: string; name: string; country: string; region: string } & Record<string, unknown>>(
      'select document, position, issued_at, name, country, region, amount_cents from document_tax order by document, position',
    )
  ).map((row) => ({
    ...row,
    position: Number(row.position),
    issued_at: Number(row.issued_at),
    amount_cents: Number(row.amount_cents),
  })),
});

it('copies what the reports read for every order and document, as the live code writes it', {
  timeout: 60_000,
}, async () => {
  database = await createDatabase();
  const { server: first, owner } = await serverWithOwner({ DATABASE_URL: database.url });
  const current = (await owner.json('GET', '/api/admin/settings')).body.settings;
  const rate = (name: string, region: string) => ({ name, country: 'US', region, postalPrefix: null, rate: 6000 });
  const tax = { pricesIncludeTax: false, taxShipping: true, rates: [rate('FL', 'US-FL'), rate('NY', 'US-NY')] };
  expect((await owner.json('PUT', '/api/admin/settings', { ...current, tax })).status).toBe(200);
  const move = (number: string, from: string, to: string) =>
    owner.json('POST', `/api/admin/orders/${number}/moves`, { from, to });
  const rider = await confirmedRider(first.url);
  const paid = await rider.order('1', '2');
  expect((await move(paid.number, 'placed', 'paid')).status).toBe(200);
  await rider.add('3');
  const elsewhere = await rider.placeOrder({
    address: { ...address, city: 'New York', region: 'US-NY', postalCode: '10001' },
  });
  expect(elsewhere.status).toBe(201);
  const cancelled = elsewhere.body.order.number as string;
  expect((await move(cancelled, 'placed', 'paid')).status).toBe(200);
  expect((await move(cancelled, 'paid', 'cancelled')).status).toBe(200);
  await rider.order('4');

  const live = await copiesOf(database);
  expect(live.lines).toHaveLength(4);
  // Two invoices and a credit note, each with its tax lines; the credit note's are negative.
  expect(new Set(live.taxes.map((tax) => tax.document)).size).toBe(3);
  expect(live.taxes.some((tax) => tax.amount_cents < 0 && tax.region === 'US-NY')).toBe(true);
  expect(live.orders.some(([, shipping]) => (shipping as number) > 0)).toBe(true);
  await first.stop();

  await undoReportColumns(database);
  const after = await startTestServer({ DATABASE_URL: database.url });
  await after.stop();
  expect(await copiesOf(database)).toEqual(live);
});
