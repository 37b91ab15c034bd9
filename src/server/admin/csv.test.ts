import { describe, expect, it } from 'vitest';
import type { Order } from '../../shared/orders';
import { ordersCsv, shopDays, startOfShopDay } from './csv';

const order: Order = {
  number: 'PF-10001',
  placedAt: '2026-11-24T22:03:00.000Z',
  status: 'paid',
  itemCount: 2,
  totalCents: 60199,
  email: 'ada@example.com',
  lines: [
    { itemid: '1', name: 'Anky Bridle', priceCents: 30299, size: 'Cob' },
    // A line of an order placed before the shop had sizes.
    { itemid: '6', name: 'Crochet Saddle Blanket', priceCents: 29900, size: null },
  ],
  subtotalCents: 60199,
  shippingCents: 0,
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

describe('ordersCsv', () => {
  it('writes one row per order line, with the order repeated, in the shop time zone, with a BOM and CRLF', () => {
    const lines = ordersCsv([order]).split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFF"Order","Date","E-mail","Name","Address","Item no.","Item","Size","Price","Shipping","Total","Status"',
    );
    expect(lines[1]).toBe(
      '"PF-10001","2026-11-24 17:03","ada@example.com","\'=HYPERLINK(""http://evil.example"",""click"")",' +
        '"\'+1 Stable ""Row"", Wellington, FL 33414, United States, Phone: @SUM(1)","1","Anky Bridle","Cob",302.99,0.00,601.99,"Paid"',
    );
    expect(lines[2]).toContain('"6","Crochet Saddle Blanket","",299.00,0.00,601.99,"Paid"');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
  });

  it.each([['='], ['+'], ['-'], ['@'], ['\t'], ['\r']])('escapes a cell that starts with %j', (start) => {
    const csv = ordersCsv([{ ...order, email: `${start}x@example.com` }]);
    expect(csv).toContain(`"'${start}x@example.com"`);
  });

  it('writes only the header for no orders', () => {
    expect(ordersCsv([]).split('\r\n')).toHaveLength(2);
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
