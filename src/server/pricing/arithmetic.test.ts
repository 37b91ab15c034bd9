import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cents, taxRules } from '../../../test/support/pricing-arbitraries';
import { sumCents } from '../../shared/money';
import { type Breakdown, priceOrder } from './arithmetic';
import { noTax } from './tax';

const input = fc.record({
  lineCents: fc.array(cents, { maxLength: 50 }),
  shippingCents: cents,
  adjustments: fc.array(
    fc.record({ label: fc.string(), amountCents: fc.integer({ min: -20_000_000, max: 1_000_000 }) }),
    { maxLength: 4 },
  ),
  freeShipping: fc.boolean(),
  tax: taxRules,
});

/** Every part of an order's money that the total is made of. */
function parts(money: Breakdown): number[] {
  return [
    money.subtotalCents,
    money.shippingCents,
    ...(money.adjustments ?? []).map((a) => a.amountCents),
    ...(money.taxLines ?? []).filter((t) => !t.included).map((t) => t.amountCents),
  ];
}

describe('priceOrder', () => {
  it('gives parts that always add up to the total, in whole cents, never below zero', () => {
    fc.assert(
      fc.property(input, (given) => {
        const money = priceOrder(given);
        expect(sumCents(parts(money))).toBe(money.totalCents);
        expect(money.subtotalCents).toBe(sumCents(given.lineCents));
        expect(money.lineCents).toEqual(given.lineCents);
        for (const amount of [...parts(money), money.totalCents]) expect(Number.isSafeInteger(amount)).toBe(true);
        expect(money.totalCents).toBeGreaterThanOrEqual(money.shippingCents);
        const goods = money.subtotalCents + sumCents(money.adjustments.map((a) => a.amountCents));
        if (given.tax.pricesIncludeTax) expect(money.totalCents).toBe(goods + money.shippingCents);
      }),
    );
  });

  it('lowers the goods to zero at most, and keeps what each adjustment took', () => {
    const money = priceOrder({
      lineCents: [30299, 29900],
      shippingCents: 0,
      adjustments: [
        { label: 'Ten off', amountCents: -1000 },
        { label: 'Everything off', amountCents: -100_000 },
      ],
      tax: noTax,
    });
    expect(money).toEqual({
      lineCents: [30299, 29900],
      subtotalCents: 60199,
      shippingCents: 0,
      adjustments: [
        { label: 'Ten off', amountCents: -1000 },
        { label: 'Everything off', amountCents: -59199 },
      ],
      taxLines: [],
      totalCents: 0,
      // Everything taken off: each line's discount is its price (spread.ts).
      spread: {
        lines: [
          { discountCents: 30299, taxCents: 0 },
          { discountCents: 29900, taxCents: 0 },
        ],
        shippingTaxCents: 0,
      },
    });
  });
});

describe('priceOrder with tax (docs/product.md §19)', () => {
  const shippingCents = 2500;
  const florida = { name: 'FL sales tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 7000 };

  it('adds 7% on $299.00 and $25.00 of taxed shipping: $22.68, a total of $346.68', () => {
    const money = priceOrder({
      lineCents: [29900],
      shippingCents,
      adjustments: [],
      tax: { pricesIncludeTax: false, taxShipping: true, rates: [florida] },
    });
    expect(money.taxLines).toEqual([
      { name: 'FL sales tax', rate: 7000, baseCents: 32400, amountCents: 2268, included: false },
    ]);
    expect(money.totalCents).toBe(34668);
  });

  it('charges tax on the goods after a discount, and not on shipping unless asked', () => {
    const money = priceOrder({
      lineCents: [29900],
      shippingCents,
      adjustments: [{ label: 'Discount', amountCents: -9900 }],
      tax: { pricesIncludeTax: false, taxShipping: false, rates: [florida] },
    });
    expect(money.taxLines).toEqual([
      { name: 'FL sales tax', rate: 7000, baseCents: 20000, amountCents: 1400, included: false },
    ]);
    expect(money.totalCents).toBe(20000 + 2500 + 1400);
  });

  it("a discount code's free shipping charges neither shipping nor tax on it, and takes nothing off the goods", () => {
    const money = priceOrder({
      lineCents: [29900],
      shippingCents: 2500,
      adjustments: [{ label: 'Discount CLUB (free shipping)', amountCents: 0, code: 'CLUB' }],
      freeShipping: true,
      tax: { pricesIncludeTax: false, taxShipping: true, rates: [florida] },
    });
    expect(money.shippingCents).toBe(0);
    expect(money.adjustments).toEqual([{ label: 'Discount CLUB (free shipping)', amountCents: 0, code: 'CLUB' }]);
    expect(money.taxLines).toEqual([
      { name: 'FL sales tax', rate: 7000, baseCents: 29900, amountCents: 2093, included: false },
    ]);
    expect(money.totalCents).toBe(29900 + 2093);
  });

  it('leaves the total of prices that include VAT as it is and says what it contains', () => {
    const vat = { name: 'VAT', country: 'DE', region: null, postalPrefix: null, rate: 19000 };
    const money = priceOrder({
      lineCents: [29900],
      shippingCents,
      adjustments: [],
      tax: { pricesIncludeTax: true, taxShipping: true, rates: [vat] },
    });
    expect(money.totalCents).toBe(32400);
    expect(money.taxLines).toEqual([{ name: 'VAT', rate: 19000, baseCents: 27227, amountCents: 5173, included: true }]);
  });
});
