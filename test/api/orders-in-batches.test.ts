import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { limits } from '../../src/shared/limits';
import type { Order, OrderSummary } from '../../src/shared/orders';
import type { TaxRate } from '../../src/shared/tax';
import { address, Client } from '../support/client';
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
    const rider = new Client(server.url);
    await rider.signupConfirmed();
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
    expect(orders.map((o) => o.taxLines?.map((line) => line.name))).toEqual([
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
      const taxOf = (name: string) => o.taxLines?.find((line) => line.name === name)?.amountCents ?? 0;
      const taxCents = taxOf('NY sales tax') + taxOf('FL sales tax');
      o.lines.forEach((line, index) => {
        const cells = rows[row++] ?? '';
        expect(cells).toContain(`"${line.itemid}","${line.name}"`);
        expect(cells).toMatch(
          index === 0
            ? new RegExp(
                `,${dollars(o.totalCents)},"Placed","[^"]+",${[taxCents, taxOf('NY sales tax'), taxOf('FL sales tax')].map(dollars).join(',')}$`,
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
  it('pages every order newest first, and each status apart, without a gap or a repeat at a page end', async () => {
    // Riders place at most limits.ordersPerHour orders each: enough riders for one page and three more orders in all.
    const wanted = limits.pageSize + 3 - placed.length;
    for (let rider = 0; rider * limits.ordersPerHour < wanted; rider += 1) {
      const client = new Client(server.url);
      await client.signupConfirmed();
      const count = Math.min(limits.ordersPerHour, wanted - rider * limits.ordersPerHour);
      for (let n = 0; n < count; n += 1) await order(client, ['1'], 'TX', '75001');
    }
    const newestFirst = placed.map((o) => o.number).reverse();
    expect(newestFirst).toHaveLength(limits.pageSize + 3);
    const page = async (query: string) => {
      const reply = await owner.json('GET', `/api/admin/orders?${query}`);
      expect(reply.status).toBe(200);
      return { ...reply.body, numbers: reply.body.orders.map((o: OrderSummary) => o.number) };
    };

    const first = await page('page=1');
    expect(first).toMatchObject({ page: 1, pages: 2, total: limits.pageSize + 3 });
    expect(first.numbers).toEqual(newestFirst.slice(0, limits.pageSize));
    const second = await page('page=2');
    expect(second).toMatchObject({ page: 2, pages: 2, total: limits.pageSize + 3 });
    expect(second.numbers).toEqual(newestFirst.slice(limits.pageSize));
    expect(await page('page=3')).toMatchObject({ numbers: [], page: 3, pages: 2, total: limits.pageSize + 3 });

    // Two paid, the newest and the oldest: the placed ones are one page and one order more.
    const paid = [newestFirst[0], newestFirst.at(-1)] as string[];
    for (const number of paid) {
      const moved = await owner.json('POST', `/api/admin/orders/${number}/moves`, { to: 'paid', from: 'placed' });
      expect(moved.status).toBe(200);
    }
    const stillPlaced = newestFirst.filter((number) => !paid.includes(number));
    const placedFirst = await page('status=placed');
    expect(placedFirst).toMatchObject({ page: 1, pages: 2, total: limits.pageSize + 1 });
    expect(placedFirst.numbers).toEqual(stillPlaced.slice(0, limits.pageSize));
    const placedSecond = await page('status=placed&page=2');
    expect(placedSecond.numbers).toEqual(stillPlaced.slice(limits.pageSize));
    expect(await page('status=paid')).toMatchObject({ numbers: paid, page: 1, pages: 1, total: 2 });
    expect(await page('status=shipped')).toMatchObject({ numbers: [], page: 1, pages: 1, total: 0 });
  });
});
