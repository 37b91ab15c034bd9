import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTime, startOfShopDay } from '../../src/server/books/shop-time';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { readRecord } from '../../src/server/invoices/invoice-record';
import type { Order } from '../../src/shared/orders';
import { discountOf } from '../../src/shared/pricing';
import { addDays, type Report } from '../../src/shared/reports';
import { address, Client } from '../support/client';
import { createDiscount } from '../support/discounts';
import { expectError } from '../support/expect-error';
import { shopWithOwner } from '../support/shop-with-owner';

/** The owner's reports (docs/product.md §26, docs/decisions/0065-reports.md). */

const shop = shopWithOwner();
const { timeZone } = newShopSettings.format;
const hour = 3_600_000;

const newYork = { ...address, city: 'New York', region: 'US-NY', postalCode: '10001' };

/** An instant of the shop's day `date`, `hours` after its start. */
const onDay = (date: string, hours = 10) => startOfShopDay(date, timeZone) + hours * hour;

interface Placed {
  order: Order;
  /** The shop's day it is placed on, and the day it is paid, cancelled or refunded on (when it is). */
  day: string;
  paidDay?: string;
  cancelledDay?: string;
}

let placed: Placed[];
let discountCode: string;

const orderNumber = (order: Order) => Number(order.number.replace(/\D/g, ''));

async function move(order: Order, from: string, to: string) {
  const reply = await shop.owner.json('POST', `/api/admin/orders/${order.number}/moves`, { from, to });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.order as Order;
}

/** Moves an order's placing to `at`: its instant and its lines' copy of it (docs/decisions/0066-reports-at-size.md). */
async function placeAt(order: Order, at: number) {
  const { kysely } = shop.server.db;
  const number = orderNumber(order);
  await kysely.updateTable('shop_order').set({ placed_at: at }).where('number', '=', number).execute();
  await kysely.updateTable('order_line').set({ placed_at: at }).where('order_number', '=', number).execute();
}

/**
 * Moves an order's placing, its invoice and credit note (with their tax lines), and its refund to the days given.
 */
async function dateOrder({ order, day, paidDay, cancelledDay }: Placed) {
  const { kysely } = shop.server.db;
  const number = orderNumber(order);
  await placeAt(order, onDay(day));
  const issue = async (kind: string, date: string) => {
    const documents = await kysely
      .updateTable('invoice')
      .set({ issued_at: onDay(date, 12), month: date.slice(0, 7) })
      .where('order_number', '=', number)
      .where('kind', '=', kind)
      .returning('number')
      .execute();
    for (const { number: document } of documents)
      await kysely
        .updateTable('document_tax')
        .set({ issued_at: onDay(date, 12) })
        .where('document', '=', document)
        .execute();
  };
  if (paidDay) await issue('invoice', paidDay);
  if (paidDay && cancelledDay) {
    await issue('credit-note', cancelledDay);
    await refundOn(order, cancelledDay);
  }
}

/**
 * The refund of a paid order's cancel on `date`: the row the cancel wrote (moved to that day), or, where the cancel
 * does not write one yet, the row migration 0041 writes for such an order.
 */
async function refundOn(order: Order, date: string) {
  const { kysely } = shop.server.db;
  const number = orderNumber(order);
  const kept = await kysely.selectFrom('refund').select('seq').where('order_number', '=', number).executeTakeFirst();
  if (kept) {
    await kysely
      .updateTable('refund')
      .set({ at: onDay(date, 15) })
      .where('order_number', '=', number)
      .execute();
    return;
  }
  const { money } = order;
  const note = await kysely
    .selectFrom('invoice')
    .select('number')
    .where('order_number', '=', number)
    .where('kind', '=', 'credit-note')
    .executeTakeFirst();
  await kysely
    .insertInto('refund')
    .values({
      order_number: number,
      seq: 1,
      return_number: null,
      at: onDay(date, 15),
      amount_cents: money.totalCents,
      goods_cents: money.subtotalCents,
      discount_cents: -(discountOf(money)?.amountCents ?? 0),
      shipping_cents: money.shippingCents,
      tax_cents: money.taxCents,
      tax_lines: JSON.stringify(money.taxLines ?? []),
      refunded_cents: money.totalCents,
      paid_cents: money.totalCents,
      credit_note: note?.number ?? null,
      provider_refund_id: null,
    })
    .execute();
}

/** A new rider's order of `itemids`, delivered to `place`, with the code if given. */
async function orderOf(place: typeof address, itemids: string[], code?: string): Promise<Order> {
  const client = new Client(shop.server.url);
  await client.signupConfirmed();
  for (const itemid of itemids) await client.add(itemid);
  const reply = await client.placeOrder({ address: place, ...(code ? { discountCode: code } : {}) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.order;
}

const report = async (query: string): Promise<Report> => {
  const reply = await shop.owner.json('GET', `/api/admin/reports?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

const march = 'from=2025-03-01&to=2025-03-31';
const sumOf = (orders: Order[], part: (order: Order) => number) => orders.reduce((sum, o) => sum + part(o), 0);
const discountTaken = (order: Order) => -(discountOf(order.money)?.amountCents ?? 0);

/** The orders, by what happens to them. */
let withCode: Order;
let newYorkPaid: Order;
let cancelledUnpaid: Order;
let refunded: Order;
let lateOnTheLastDay: Order;

beforeAll(async () => {
  const { owner } = shop;
  const current = (await owner.json('GET', '/api/admin/settings')).body.settings;
  const rate = (name: string, region: string, thousandths: number) => ({
    name,
    country: 'US',
    region,
    postalPrefix: null,
    rate: thousandths,
  });
  const tax = {
    pricesIncludeTax: false,
    taxShipping: false,
    rates: [rate('FL sales tax', 'US-FL', 6000), rate('NY sales tax', 'US-NY', 4000)],
  };
  const saved = await owner.json('PUT', '/api/admin/settings', { ...current, tax });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  discountCode = (await createDiscount(owner, { gives: { kind: 'percent', percent: 10 } })).code;
  // A new shop's 2 of the saddle's 17" (a test shop has plenty of every size).
  await shop.server.db.kysely
    .updateTable('product_size')
    .set({ stock: 2 })
    .where('itemid', '=', '2')
    .where('size', '=', '17"')
    .execute();

  const [a, b, c, d, e] = await Promise.all([
    orderOf(address, ['1', '3'], discountCode),
    orderOf(newYork, ['2']),
    orderOf(address, ['4']),
    orderOf(newYork, ['5']),
    orderOf(address, ['6']),
  ]);
  withCode = await move(a as Order, 'placed', 'paid');
  newYorkPaid = await move(b as Order, 'placed', 'paid');
  cancelledUnpaid = await move(c as Order, 'placed', 'cancelled');
  refunded = await move(await move(d as Order, 'placed', 'paid'), 'paid', 'cancelled');
  lateOnTheLastDay = e as Order;
  placed = [
    { order: withCode, day: '2025-03-03', paidDay: '2025-03-04' },
    { order: newYorkPaid, day: '2025-03-10', paidDay: '2025-03-11' },
    { order: cancelledUnpaid, day: '2025-03-12' },
    // Placed and paid in February, cancelled (and refunded) in March.
    { order: refunded, day: '2025-02-25', paidDay: '2025-02-26', cancelledDay: '2025-03-15' },
  ];
  for (const one of placed) await dateOrder(one);
  // Half an hour before midnight of the 31st in the shop's time zone: the 1st of April in UTC.
  await placeAt(lateOnTheLastDay, onDay('2025-03-31', 23.5));
});

describe('the report of a period (docs/product.md §26)', () => {
  it('counts its orders, sales, discounts, refunds, shipping and tax exactly, on the shop’s days', async () => {
    const counted = [withCode, newYorkPaid, lateOnTheLastDay];
    const { figures, previous, period } = await report(march);
    expect(period).toEqual({
      from: '2025-03-01',
      to: '2025-03-31',
      previousFrom: '2025-01-29',
      previousTo: '2025-02-28',
      unit: 'day',
    });
    const gross = sumOf(counted, (o) => o.money.subtotalCents);
    const discount = discountTaken(withCode);
    expect(discount).toBeGreaterThan(0);
    const refunds = refunded.money.subtotalCents;
    const taxOf = (order: Order) => order.money.taxCents;
    expect(taxOf(withCode) * taxOf(newYorkPaid) * taxOf(refunded)).toBeGreaterThan(0);
    expect(figures).toEqual({
      orders: 3,
      grossCents: gross,
      discountCents: discount,
      refundCents: refunds,
      netCents: gross - discount - refunds,
      shippingCents: sumOf(counted, (o) => o.money.shippingCents),
      // The unpaid order has no invoice yet; the refunded one's credit note is March's, its invoice February's.
      taxCents: taxOf(withCode) + taxOf(newYorkPaid) - taxOf(refunded),
      averageOrderCents: Math.round((gross - discount) / 3),
    });
    expect(previous).toMatchObject({
      orders: 1,
      grossCents: refunded.money.subtotalCents,
      refundCents: 0,
      taxCents: taxOf(refunded),
    });
  });

  it('gives tax by name and place, the CSV to file with it', async () => {
    const { tax } = await report(march);
    expect(tax).toEqual([
      {
        name: 'FL sales tax',
        country: 'US',
        region: 'US-FL',
        place: 'Florida, United States',
        amountCents: withCode.money.taxCents,
      },
      {
        name: 'NY sales tax',
        country: 'US',
        region: 'US-NY',
        place: 'New York, United States',
        amountCents: newYorkPaid.money.taxCents - refunded.money.taxCents,
      },
    ]);
    const csv = await shop.owner.raw('GET', `/api/admin/reports/tax.csv?${march}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="piaffe-tax-2025-03-01-to-2025-03-31.csv"',
    );
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(csv.bytes)).toBe(
      '\uFEFF"From","To","Tax","Place","Country","Region","Collected"\r\n' +
        `"2025-03-01","2025-03-31","FL sales tax","Florida, United States","US","US-FL",${dollars(withCode.money.taxCents)}\r\n` +
        `"2025-03-01","2025-03-31","NY sales tax","New York, United States","US","US-NY",${dollars(newYorkPaid.money.taxCents - refunded.money.taxCents)}\r\n`,
    );
  });

  it('charts net sales by day beside the period before, and lists codes, best sellers and low stock', async () => {
    const { chart, figures, discounts, products, sizes, lowStock } = await report(march);
    expect(chart).toHaveLength(31);
    expect(chart.reduce((sum, step) => sum + step.netCents, 0)).toBe(figures.netCents);
    expect(chart[2]).toEqual({
      from: '2025-03-03',
      netCents: withCode.money.subtotalCents - discountTaken(withCode),
      previousFrom: '2025-01-31',
      previousNetCents: 0,
    });
    expect(chart[14]?.netCents).toBe(-refunded.money.subtotalCents);
    expect(chart[27]).toMatchObject({ previousFrom: '2025-02-25', previousNetCents: refunded.money.subtotalCents });
    expect(chart[30]).toMatchObject({ from: '2025-03-31', netCents: lateOnTheLastDay.money.subtotalCents });
    expect(discounts).toEqual([
      { code: discountCode, kind: 'percent', orders: 1, takenCents: discountTaken(withCode) },
    ]);
    // Neither cancelled order's lines are sales.
    const sold = [withCode, newYorkPaid, lateOnTheLastDay].flatMap((o) => o.lines);
    expect(products.byUnits.map((p) => p.itemid).sort()).toEqual(sold.map((l) => l.itemid).sort());
    const saddle = newYorkPaid.lines[0];
    expect(sizes.byNet[0]).toEqual({
      itemid: '2',
      name: saddle?.name,
      size: '17"',
      units: 1,
      netCents: saddle?.priceCents,
    });
    // The saddle's 17" (2 in stock, 1 sold in March's 31 days): 1 left, 31 days at that pace.
    expect(lowStock.threshold).toBe(2);
    expect(lowStock.sizes[0]).toEqual({
      itemid: '2',
      name: saddle?.name,
      size: '17"',
      left: 1,
      units: 1,
      daysLeft: 31,
    });
    expect(lowStock.count).toBe(1);
  });

  it('takes this month, last month and this year from the address, on the shop’s calendar', async () => {
    const today = shopTime(new Date().toISOString(), timeZone).slice(0, 10);
    const month = today.slice(0, 7);
    expect((await report('')).period).toMatchObject({ from: `${month}-01`, previousTo: addDays(`${month}-01`, -1) });
    expect((await report('period=this-month')).period.from).toBe(`${month}-01`);
    const last = await report('period=last-month');
    expect(last.period).toMatchObject({ to: addDays(`${month}-01`, -1), unit: 'day' });
    const year = await report('period=this-year');
    expect(year.period).toMatchObject({
      from: `${today.slice(0, 4)}-01-01`,
      to: `${today.slice(0, 4)}-12-31`,
      unit: 'month',
    });
    expect(year.chart).toHaveLength(12);
    expect((await report('from=2025-01-01&to=2025-03-31')).period.unit).toBe('week');
  });

  it('refuses a period it cannot read, and anyone but an owner', async () => {
    for (const query of [
      'from=2025-03-01',
      'from=2025-03-10&to=2025-03-01',
      'from=2024-01-01&to=2025-01-01',
      'period=week',
      'period=this-month&from=2025-03-01&to=2025-03-02',
      'from=2025-02-30&to=2025-03-01',
    ]) {
      expectError(await shop.owner.json('GET', `/api/admin/reports?${query}`), 400, 'request/invalid-query');
    }
    const client = new Client(shop.server.url);
    expectError(await client.json('GET', '/api/admin/reports'), 401, 'auth/unauthenticated');
    await client.signupConfirmed();
    expectError(await client.json('GET', '/api/admin/reports'), 403, 'auth/forbidden');
    expectError(await client.json('GET', `/api/admin/reports/tax.csv?${march}`), 403, 'auth/forbidden');
  });
});

/** A CSV's rows as cells (RFC 4180: quoted cells with "" inside, CRLF), without its header. */
function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(1, -1)
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => (m[1] ?? '').replace(/^"|"$/g, '')).slice(0, -1),
    );
}

const cents = (cell: string | undefined) => Math.round(Number(cell || 0) * 100);

describe('the figures tie out', () => {
  it('to the CSV export, the refunds and the invoices, for any period (property)', async () => {
    const { kysely } = shop.server.db;
    const refunds = await kysely.selectFrom('refund').selectAll().execute();
    const documents = await kysely.selectFrom('invoice').select(['issued_at', 'record']).execute();
    const refundedOrders = new Set(refunds.map((r) => `PF-${r.order_number}`));
    const day = fc.integer({ min: 0, max: 45 }).map((n) => addDays('2025-02-20', n));
    await fc.assert(
      fc.asyncProperty(day, day, async (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const start = startOfShopDay(from, timeZone);
        const end = startOfShopDay(addDays(to, 1), timeZone);
        const { figures } = await report(`from=${from}&to=${to}`);
        const csv = await shop.owner.raw('GET', `/api/admin/orders.csv?from=${from}&to=${to}`);
        // An order cancelled without a refund was never a sale; the export lists it, with its status.
        const rows = csvRows(new TextDecoder().decode(csv.bytes)).filter(
          (row) => row[13] !== 'Cancelled' || refundedOrders.has(row[0] ?? ''),
        );
        expect(figures.grossCents).toBe(rows.reduce((sum, row) => sum + cents(row[8]), 0));
        expect(figures.discountCents).toBe(0 - rows.reduce((sum, row) => sum + cents(row[10]), 0));
        expect(figures.shippingCents).toBe(rows.reduce((sum, row) => sum + cents(row[11]), 0));
        expect(figures.orders).toBe(new Set(rows.map((row) => row[0])).size);
        const inPeriod = (at: number | string) => Number(at) >= start && Number(at) < end;
        expect(figures.refundCents).toBe(
          refunds
            .filter((r) => inPeriod(r.at))
            .reduce((sum, r) => sum + Number(r.goods_cents) - Number(r.discount_cents), 0),
        );
        expect(figures.taxCents).toBe(
          documents
            .filter((d) => inPeriod(d.issued_at))
            .flatMap((d) => readRecord(d.record).money.taxLines ?? [])
            .reduce((sum, line) => sum + line.amountCents, 0),
        );
        expect(figures.netCents).toBe(figures.grossCents - figures.discountCents - figures.refundCents);
      }),
      { numRuns: 12 },
    );
  });

  it('counts a refund on the day it was made, not on its order’s', async () => {
    const on = async (date: string) => (await report(`from=${date}&to=${date}`)).figures;
    expect(await on('2025-02-25')).toMatchObject({ orders: 1, refundCents: 0 });
    expect(await on('2025-03-15')).toMatchObject({ orders: 0, refundCents: refunded.money.subtotalCents });
    await refundOn(refunded, '2025-03-20');
    expect(await on('2025-03-15')).toMatchObject({ refundCents: 0 });
    expect(await on('2025-03-20')).toMatchObject({ refundCents: refunded.money.subtotalCents });
    expect((await report(march)).figures.refundCents).toBe(refunded.money.subtotalCents);
    expect((await report('from=2025-04-01&to=2025-04-30')).figures.refundCents).toBe(0);
    await refundOn(refunded, '2025-03-15');
  });
});
