import { describe, expect, it } from 'vitest';
import type { Order } from '../../shared/orders';
import { shopDays, startOfShopDay } from '../books/shop-time';
import { type CsvShop, ordersCsv as ordersCsvStream } from './csv';

const order: Order = {
  number: 'PF-10001',
  placedAt: '2026-11-24T22:03:00.000Z',
  status: 'paid',
  itemCount: 2,
  email: 'ada@example.com',
  lines: [
    { itemid: '1', name: 'Anky Bridle', priceCents: 30299, size: 'Cob' },
    // A line of an order placed before the shop had sizes.
    { itemid: '6', name: 'Crochet Saddle Blanket', priceCents: 29900, size: null },
  ],
  money: { currency: 'USD', subtotalCents: 60199, shippingCents: 0, taxCents: 0, netCents: 60199, totalCents: 60199 },
  address: {
    fullName: '=HYPERLINK("http://evil.example","click")',
    line1: '+1 Stable "Row"',
    line2: '',
    city: 'Wellington',
    region: 'FL',
    postalCode: '33414',
    country: 'US',
    phone: '@SUM(1)',
  },
  paymentMethod: 'bank-transfer',
  card: null,
  history: [],
};

/** A new shop's time zone. */
const shop: CsvShop = { timeZone: 'America/New_York' };

/** The export of `orders` (without tax) as the owner downloads it, read one order at a time. */
async function ordersCsv(orders: readonly Order[], { timeZone }: CsvShop): Promise<string> {
  async function* batches() {
    for (const order of orders) yield [order];
  }
  const bytes = await new Response(ordersCsvStream([], batches(), { timeZone })).arrayBuffer();
  // The byte-order mark kept, as a spreadsheet reads it.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** A CSV row's cells, as a spreadsheet splits them. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  for (const [, cell = '', end] of row.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
    cells.push(cell);
    if (end === '') break;
  }
  return cells;
}

describe('ordersCsv', () => {
  it("writes one row per order line, the order's amounts on its first, in the shop time zone, with a BOM and CRLF", async () => {
    const lines = (await ordersCsv([order], shop)).split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFF"Order","Date","E-mail","Name","Address","Item no.","Item","Size","Price","Discount code","Discount","Shipping","Total","Status","Delivery"',
    );
    expect(lines[1]).toBe(
      '"PF-10001","2026-11-24 17:03","ada@example.com","\'=HYPERLINK(""http://evil.example"",""click"")",' +
        '"\'+1 Stable ""Row"", Wellington, FL 33414, United States, Phone: @SUM(1)","1","Anky Bridle","Cob",302.99,"",,0.00,601.99,"Paid","Ship to my address"',
    );
    expect(lines[2]).toContain('"6","Crochet Saddle Blanket","",299.00,,,,,"Paid"');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
  });

  it.each([['='], ['+'], ['-'], ['@'], ['\t'], ['\r']])('escapes a cell that starts with %j', async (start) => {
    const csv = await ordersCsv([{ ...order, email: `${start}x@example.com` }], shop);
    expect(csv).toContain(`"'${start}x@example.com"`);
  });

  it("counts each order's discount, shipping and total once: the columns add up to the orders' own", async () => {
    const second: Order = {
      ...order,
      number: 'PF-10002',
      lines: [{ itemid: '3', name: 'Tall Boots', priceCents: 10000, size: '8' }],
      money: {
        currency: 'USD',
        subtotalCents: 10000,
        adjustments: [{ label: 'Discount SPRING10', amountCents: -1000, code: 'SPRING10' }],
        shippingCents: 2500,
        taxCents: 0,
        netCents: 11500,
        totalCents: 11500,
      },
    };
    const rows = (await ordersCsv([order, second], shop)).split('\r\n').slice(1, -1).map(cellsOf);
    const sum = (column: number) => rows.reduce((total, cells) => total + Math.round(Number(cells[column]) * 100), 0);
    expect(rows).toHaveLength(3);
    expect(sum(8)).toBe(60199 + 10000);
    expect(rows[2]?.[9]).toBe('"SPRING10"');
    expect(sum(10)).toBe(-1000);
    expect(sum(11)).toBe(0 + 2500);
    expect(sum(12)).toBe(60199 + 11500);
    expect(sum(8) + sum(10) + sum(11)).toBe(sum(12));
  });

  it('writes only the header for no orders', async () => {
    expect((await ordersCsv([], shop)).split('\r\n')).toHaveLength(2);
  });
});

describe('startOfShopDay', () => {
  it('is local midnight in the shop time zone, through changes of the clocks', () => {
    expect(new Date(startOfShopDay('2026-11-24', 'America/New_York')).toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(new Date(startOfShopDay('2026-07-01', 'America/New_York')).toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(new Date(startOfShopDay('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(startOfShopDay('2026-11-01', 'America/New_York')).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(new Date(startOfShopDay('2026-11-24', 'Asia/Kolkata')).toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(new Date(startOfShopDay('2026-11-24', 'UTC')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('gives a range of days from the first instant of the first to the first instant after the last', () => {
    expect(shopDays('2026-11-01', '2026-11-30', 'America/New_York').map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-12-01T05:00:00.000Z',
    ]);
  });
});
