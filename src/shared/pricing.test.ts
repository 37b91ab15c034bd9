import { describe, expect, it } from 'vitest';
import { moneyRows, type OrderMoney } from './pricing';

/** An order's money with the sums the pricing makes (src/server/pricing/pricing.ts). */
function money(parts: Omit<OrderMoney, 'currency' | 'taxCents' | 'netCents'>): OrderMoney {
  const taxCents = (parts.taxLines ?? []).reduce((sum, line) => sum + line.amountCents, 0);
  return { currency: 'USD', ...parts, taxCents, netCents: parts.totalCents - taxCents };
}

describe('moneyRows', () => {
  const rows = (given: OrderMoney) => moneyRows(given, 'en-US').map((row) => [row.label, row.amount, row.isTotal]);

  it("prints today's order: subtotal, shipping ('Free' when none) and the total", () => {
    expect(rows(money({ subtotalCents: 10000, shippingCents: 2500, totalCents: 12500 }))).toEqual([
      ['Subtotal', '$100.00', false],
      ['Shipping', '$25.00', false],
      ['Total', '$125.00', true],
    ]);
    expect(rows(money({ subtotalCents: 60199, shippingCents: 0, totalCents: 60199 }))[1]).toEqual([
      'Shipping',
      'Free',
      false,
    ]);
  });

  it('prints adjustments before shipping, added taxes before the total, and the taxes it contains after it', () => {
    const given = money({
      subtotalCents: 10000,
      shippingCents: 2500,
      adjustments: [{ label: 'Discount SPRING', amountCents: -1000 }],
      taxLines: [
        { name: 'FL sales tax', rate: 6000, baseCents: 9000, amountCents: 540, included: false },
        { name: 'VAT', rate: 19000, baseCents: 9000, amountCents: 1437, included: true },
      ],
      totalCents: 12040,
    });
    expect(rows(given)).toEqual([
      ['Subtotal', '$100.00', false],
      ['Discount SPRING', '-$10.00', false],
      ['Shipping', '$25.00', false],
      ['FL sales tax', '$5.40', false],
      ['Total', '$120.40', true],
      ['Includes VAT 19%', '$14.37', false],
    ]);
  });

  it("writes the amounts in the money's own currency, in the locale given", () => {
    const euros = { ...money({ subtotalCents: 10000, shippingCents: 0, totalCents: 10000 }), currency: 'EUR' };
    // Written with a no-break space, as German writes an amount.
    expect(moneyRows(euros, 'de-DE').map((row) => row.amount)).toEqual(['100,00\u00A0€', 'Free', '100,00\u00A0€']);
    expect(moneyRows(euros, 'en-US').at(-1)?.amount).toBe('€100.00');
  });

  it('says what prices that include VAT contain, after the total', () => {
    const vat = { name: 'VAT', rate: 19000, baseCents: 27227, amountCents: 5173, included: true };
    const given = money({ subtotalCents: 29900, shippingCents: 2500, taxLines: [vat], totalCents: 32400 });
    expect(moneyRows(given, 'en-US').at(-1)).toEqual({ label: 'Includes VAT 19%', amount: '$51.73', isTotal: false });
  });
});
