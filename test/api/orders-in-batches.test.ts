import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { limits } from '../../src/shared/limits';
import { formatOrderNumber, type Order, type OrderSummary, parseOrderNumber } from '../../src/shared/orders';
import type { TaxRate } from '../../src/shared/tax';
import { address, Client, confirmedRider } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The back office at any size (docs/decisions/0042-the-shop-at-size.md): the CSV export, read from the database a
 * batch of orders at a time (two here, so that a few orders cross several batches), and the order list's pages, at
 * their ends. What the owner downloads and pages through is the same whatever the batch and the page.
 */

let server: TestServer;
let owner: Client;
/** Every order this file places, in the order placed. */
const placed: Order[] = [];

beforeAll(async () => {
  server = await startTestServer({ EXPORT_BATCH_ORDERS: '2' });
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
});
afterAll(async () => {
  await server?.stop();
});

const rate = (name: string, thousandths: number, region: string): TaxRate => ({
  name,
  country: 'US',
  region,
  postalPrefix: null,
  rate: thousandths,
});

/** A rider's order of `itemids`, shipped to `region` of the United States. */
async function order(rider: Client, itemids: string[], region: string, postalCode: string): Promise<Order> {
  for (const itemid of itemids) await rider.add(itemid);
  const reply = await rider.placeOrder({ address: { ...address, region, postalCode } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  placed.push(reply.body.order);
  return reply.body.order;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

describe('the export, a batch at a time', () => {
  it('writes every line of every order once, in order, with the tax columns of orders first met in a later batch', async () => {
    const settings = (await owner.json('GET', '/api/admin/settings')).body.settings;
    const tax = {
      pricesIncludeTax: false,
      taxShipping: true,
      rates: [rate('FL sales tax', 7000, 'US-FL'), rate('NY sales tax', 4000, 'US-NY')],
    };
    const saved = await owner.json('PUT', '/api/admin/settings', { ...settings, tax });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const rider = await confirmedRider(server.url);
    // Batches of two: [1, 2], [3, 4], [5, 6], [7]. Texas has no rate; New York's tax is first met in the third batch.
    const orders = [
      await order(rider, ['1'], 'TX', '75001'),
      await order(rider, ['2', '3'], 'TX', '75001'),
      await order(rider, ['4'], 'TX', '75001'),
      await order(rider, ['5'], 'TX', '75001'),
      await order(rider, ['6', '7'], 'NY', '10001'),
      await order(rider, ['8'], 'FL', '33414'),
      await order(rider, ['1'], 'FL', '33414'),
    ];
    expect(orders.map((o) => o.money.taxLines?.map((line) => line.name))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      ['NY sales tax'],
      ['FL sales tax'],
      ['FL sales tax'],
    ]);

    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const csv = await owner.raw('GET', `/api/admin/orders.csv?from=${day(-1)}&to=${day(1)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = String(csv.body).split('\r\n');
    expect(lines[0]).toMatch(/^\uFEFF"Order",.*,"Delivery","Tax","NY sales tax","FL sales tax"$/);
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    // One row per line, each order's rows together, the orders oldest first; nothing else in these days.
    expect(rows.map((row) => row.slice(1, row.indexOf('"', 1)))).toEqual(
      orders.flatMap((o) => o.lines.map(() => o.number)),
    );
    let row = 0;
    for (const o of orders) {
      const taxOf = (name: string) => o.money.taxLines?.find((line) => line.name === name)?.amountCents ?? 0;
      const taxCents = taxOf('NY sales tax') + taxOf('FL sales tax');
      o.lines.forEach((line, index) => {
        const cells = rows[row++] ?? '';
        expect(cells).toContain(`"${line.itemid}","${line.name}"`);
        expect(cells).toMatch(
          index === 0
            ? new RegExp(
                `,${dollars(o.money.totalCents)},"Placed","[^"]+",${[taxCents, taxOf('NY sales tax'), taxOf('FL sales tax')].map(dollars).join(',')}$`,
              )
            : /,,,,"Placed","",,,$/,
        );
      });
    }

    const none = await owner.raw('GET', '/api/admin/orders.csv?from=2020-01-01&to=2020-01-31');
    expect(String(none.body)).toBe(`\uFEFF${lines[0]?.slice(1).replace(/,"Tax",.*$/, '')}\r\n`);
  });
});

describe('the order list, at the ends of its pages', () => {
  const number = (text: string) => parseOrderNumber(text) as number;
  const page = async (query: string) => {
    const reply = await owner.json('GET', `/api/admin/orders?${query}`);
    expect(reply.status).toBe(200);
    return { ...reply.body, numbers: reply.body.orders.map((o: OrderSummary) => o.number) };
  };

  it('pages every order newest first, and each status apart, by key, without a gap or a repeat at a page end', async () => {
    // Riders place at most limits.ordersPerHour orders each: enough riders for one page and three more orders in all.
    const wanted = limits.pageSize + 3 - placed.length;
    for (let rider = 0; rider * limits.ordersPerHour < wanted; rider += 1) {
      const client = await confirmedRider(server.url);
      const count = Math.min(limits.ordersPerHour, wanted - rider * limits.ordersPerHour);
      for (let n = 0; n < count; n += 1) await order(client, ['1'], 'TX', '75001');
    }
    const newestFirst = placed.map((o) => o.number).reverse();
    expect(newestFirst).toHaveLength(limits.pageSize + 3);
    const all = { total: limits.pageSize + 3, more: false };

    const first = await page('');
    expect(first).toMatchObject({ ...all, newer: null, older: number(newestFirst[limits.pageSize - 1] as string) });
    expect(first.numbers).toEqual(newestFirst.slice(0, limits.pageSize));
    const second = await page(`before=${first.older}`);
    expect(second).toMatchObject({ ...all, newer: number(newestFirst[limits.pageSize] as string), older: null });
    expect(second.numbers).toEqual(newestFirst.slice(limits.pageSize));
    // Back to the newer orders: fewer than a page of them is the newest page, whole.
    expect(await page(`after=${second.newer}`)).toEqual(first);
    expect(await page(`after=${number(newestFirst[10] as string)}`)).toEqual(first);
    // Beyond the oldest: no orders, and the way back to them.
    const oldest = number(newestFirst.at(-1) as string);
    expect(await page(`before=${oldest}`)).toMatchObject({ ...all, numbers: [], newer: oldest - 1, older: null });
    const fromOldest = await page(`after=${oldest - 1}`);
    expect(fromOldest.numbers).toEqual(newestFirst.slice(3));
    expect(fromOldest).toMatchObject({ newer: number(newestFirst[3] as string), older: null });

    // Two paid, the newest and the oldest: the placed ones are one page and one order more.
    const paid = [newestFirst[0], newestFirst.at(-1)] as string[];
    for (const paying of paid) {
      const moved = await owner.json('POST', `/api/admin/orders/${paying}/moves`, { to: 'paid', from: 'placed' });
      expect(moved.status).toBe(200);
    }
    const stillPlaced = newestFirst.filter((n) => !paid.includes(n));
    const placedFirst = await page('status=placed');
    expect(placedFirst).toMatchObject({ total: limits.pageSize + 1, newer: null });
    expect(placedFirst.numbers).toEqual(stillPlaced.slice(0, limits.pageSize));
    const placedSecond = await page(`status=placed&before=${placedFirst.older}`);
    expect(placedSecond.numbers).toEqual(stillPlaced.slice(limits.pageSize));
    expect(placedSecond).toMatchObject({ newer: number(stillPlaced[limits.pageSize] as string), older: null });
    expect(await page('status=paid')).toMatchObject({ numbers: paid, total: 2, newer: null, older: null });
    expect(await page('status=shipped')).toMatchObject({
      numbers: [],
      total: 0,
      more: false,
      newer: null,
      older: null,
    });
  });

  it(`counts up to ${limits.orderCountMax} orders, and says there are more`, async () => {
    // Copies of an order, put in the table directly: ten thousand orders by the API would take minutes.
    const row = await server.db.kysely
      .selectFrom('shop_order')
      .selectAll()
      .orderBy('number', 'desc')
      .executeTakeFirstOrThrow();
    const listed = (await page('')).total;
    const copies = Array.from({ length: limits.orderCountMax - listed }, (_, n) => ({
      ...row,
      number: Number(row.number) + 1 + n,
      idempotency_key: `copy-${n}`,
    }));
    for (let from = 0; from < copies.length; from += 500) {
      await server.db.kysely
        .insertInto('shop_order')
        .values(copies.slice(from, from + 500))
        .execute();
    }
    expect(await page('')).toMatchObject({ total: limits.orderCountMax, more: false });
    await server.db.kysely
      .insertInto('shop_order')
      .values({ ...row, number: Number(row.number) + copies.length + 1, idempotency_key: 'one-more' })
      .execute();
    const counted = await page('');
    expect(counted).toMatchObject({ total: limits.orderCountMax, more: true, newer: null });
    expect(counted.numbers[0]).toBe(formatOrderNumber(Number(row.number) + copies.length + 1));
    const deep = await page(`before=${Number(row.number) + 101}`);
    const below = Array.from({ length: limits.pageSize }, (_, n) => formatOrderNumber(Number(row.number) + 100 - n));
    expect(deep).toMatchObject({ numbers: below, total: limits.orderCountMax, more: true });
  });
});
