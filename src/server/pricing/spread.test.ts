import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cents, taxRules } from '../../../test/support/pricing-arbitraries';
import { rateScale } from '../../shared/tax';
import { priceOrder } from './arithmetic';
import { spreadCents } from './spread';

const amount = fc.integer({ min: 0, max: 1_000_000_000 });
const weights = fc.array(fc.integer({ min: 0, max: 100_000_000 }), { minLength: 1, maxLength: 40 });
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe('spreadCents (largest remainder)', () => {
  it('adds up to the amount exactly, never below zero', () => {
    fc.assert(
      fc.property(amount, weights, (cents, by) => {
        const shares = spreadCents(cents, by);
        expect(shares).toHaveLength(by.length);
        expect(sum(shares)).toBe(cents);
        for (const share of shares) expect(share).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('gives each share within one cent of its proportional value, rounded down or up', () => {
    fc.assert(
      fc.property(amount, weights, (cents, by) => {
        const total = sum(by);
        const shares = spreadCents(cents, by);
        shares.forEach((share, i) => {
          // Exactly: share × total lies within one total of cents × weight (equal shares when no weight counts).
          const weight = BigInt(total === 0 ? 1 : (by[i] as number));
          const whole = BigInt(total === 0 ? by.length : total);
          const exact = BigInt(cents) * weight;
          const scaled = BigInt(share) * whole;
          expect(scaled > exact - whole).toBe(true);
          expect(scaled < exact + whole).toBe(true);
        });
      }),
    );
  });

  it('breaks ties by the earlier line, so equal lines get the extra cents first in their order', () => {
    expect(spreadCents(1, [100, 100, 100])).toEqual([1, 0, 0]);
    expect(spreadCents(2, [100, 100, 100])).toEqual([1, 1, 0]);
    expect(spreadCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    fc.assert(
      fc.property(amount, fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 30 }), (cents, w, n) => {
        const shares = spreadCents(
          cents,
          Array.from({ length: n }, () => w),
        );
        // Equal weights: the shares never grow along the lines, and differ by one cent at most.
        for (let i = 1; i < n; i++) expect(shares[i - 1]).toBeGreaterThanOrEqual(shares[i] as number);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is the same spread whatever else is around: a larger remainder wins, an earlier line wins among equals', () => {
    // 10 over 3 × 1/3: remainders equal; 10 over 1,2: 3.33 and 6.66, the second's remainder is larger.
    expect(spreadCents(10, [1, 2])).toEqual([3, 7]);
    expect(spreadCents(10, [2, 1])).toEqual([7, 3]);
    expect(spreadCents(5, [1, 1, 2])).toEqual([1, 1, 3]);
    expect(spreadCents(7, [3, 3, 2])).toEqual([3, 2, 2]);
  });

  it('spreads zero as zeros, gives one line everything, shares equally over weights that are all zero', () => {
    fc.assert(
      fc.property(weights, (by) => {
        expect(spreadCents(0, by)).toEqual(by.map(() => 0));
      }),
    );
    fc.assert(
      fc.property(amount, fc.nat(), (cents, w) => {
        expect(spreadCents(cents, [w])).toEqual([cents]);
      }),
    );
    expect(spreadCents(5, [0, 0])).toEqual([3, 2]);
    expect(spreadCents(0, [])).toEqual([]);
  });

  it('refuses what cannot be spread: a negative amount or weight, an amount over nothing', () => {
    expect(() => spreadCents(-1, [1])).toThrow(RangeError);
    expect(() => spreadCents(1, [1, -1])).toThrow(RangeError);
    expect(() => spreadCents(1, [])).toThrow(RangeError);
  });
});

describe("an order's spread, as priceOrder makes it", () => {
  const order = fc.record({
    lineCents: fc.array(cents, { minLength: 1, maxLength: 30 }),
    shippingCents: cents,
    discount: fc.integer({ min: 0, max: 400_000_000 }),
    freeShipping: fc.boolean(),
    tax: taxRules,
  });

  it("adds up to the order's discount and tax to the cent; no line gives more than its price or carries less than zero", () => {
    fc.assert(
      fc.property(order, ({ discount, ...input }) => {
        const money = priceOrder({ ...input, adjustments: [{ label: 'Discount', amountCents: -discount }] });
        const { lines, shippingTaxCents } = money.spread;
        expect(lines).toHaveLength(input.lineCents.length);
        expect(sum(lines.map((line) => line.discountCents)) + sum(money.adjustments.map((a) => a.amountCents))).toBe(0);
        const taxCents = sum(money.taxLines.map((line) => line.amountCents));
        expect(sum(lines.map((line) => line.taxCents)) + shippingTaxCents).toBe(taxCents);
        if (!input.tax.taxShipping) expect(shippingTaxCents).toBe(0);
        lines.forEach((line, i) => {
          expect(line.discountCents).toBeGreaterThanOrEqual(0);
          expect(line.taxCents).toBeGreaterThanOrEqual(0);
          expect(line.discountCents).toBeLessThanOrEqual(input.lineCents[i] as number);
        });
        expect(shippingTaxCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('spreads a worked example: $10.00 off $30.00 and $10.00, 10% tax added on the goods', () => {
    const money = priceOrder({
      lineCents: [3000, 1000],
      shippingCents: 500,
      adjustments: [{ label: 'Discount', amountCents: -1000 }],
      tax: {
        pricesIncludeTax: false,
        taxShipping: false,
        rates: [{ name: 'Tax', country: 'US', region: null, postalPrefix: null, rate: rateScale / 10 }],
      },
    });
    expect(money.spread).toEqual({
      lines: [
        { discountCents: 750, taxCents: 225 },
        { discountCents: 250, taxCents: 75 },
      ],
      shippingTaxCents: 0,
    });
  });
});
