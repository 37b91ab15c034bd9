import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateScale } from '../../shared/tax';
import { priceOrder } from './arithmetic';
import { moneyOf } from './pricing';
import { refundMoney, refundOf, shippingDueOf } from './refund-money';

const cents = fc.integer({ min: 0, max: 10_000_000 });
/** An order as priceOrder makes it: its lines, a discount, free shipping or not, tax contained or added. */
const order = fc.record({
  lineCents: fc.array(cents, { minLength: 1, maxLength: 12 }),
  shippingCents: cents,
  discount: fc.integer({ min: 0, max: 40_000_000 }),
  freeShipping: fc.boolean(),
  tax: fc.record({
    pricesIncludeTax: fc.boolean(),
    taxShipping: fc.boolean(),
    rates: fc.uniqueArray(
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 8 }),
        country: fc.constant('US'),
        region: fc.constant(null),
        postalPrefix: fc.constant(null),
        rate: fc.integer({ min: 0, max: rateScale }),
      }),
      { selector: (rate) => rate.name, maxLength: 3 },
    ),
  }),
});

type OrderInput = typeof order extends fc.Arbitrary<infer T> ? T : never;

/** The order priced, as its row keeps it: its money and each line's price and shares. */
function placed({ discount, ...input }: OrderInput) {
  const priced = priceOrder({ ...input, adjustments: [{ label: 'Discount', amountCents: -discount }] });
  const money = moneyOf({
    currency: 'USD',
    subtotalCents: priced.subtotalCents,
    shippingCents: priced.shippingCents,
    adjustments: priced.adjustments,
    taxLines: priced.taxLines,
    totalCents: priced.totalCents,
  });
  const lines = input.lineCents.map((priceCents, i) => ({
    priceCents,
    discountCents: priced.spread.lines[i]?.discountCents ?? 0,
    taxCents: priced.spread.lines[i]?.taxCents ?? 0,
  }));
  return { money, lines };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe('part refunds (docs/product.md §25)', () => {
  it('never pay back more than was paid, and end at exactly the total when every line and the shipping come back', () => {
    fc.assert(
      fc.property(order, fc.array(fc.nat(), { maxLength: 12 }), fc.nat(), (input, groups, shippingAt) => {
        const { money, lines } = placed(input);
        // The lines in refunds of one or more lines each, in the order given; shipping with one of them.
        const refunds: number[][] = [];
        lines.forEach((_, i) => {
          const group = (groups[i] ?? 0) % (refunds.length + 1);
          if (group === refunds.length) refunds.push([i]);
          else refunds[group]?.push(i);
        });
        const withShipping = shippingAt % refunds.length;
        let paidBack = 0;
        refunds.forEach((positions, r) => {
          const part = refundOf({
            money,
            allLines: lines,
            lines: positions.map((i) => lines[i] as (typeof lines)[number]),
            shipping: r === withShipping,
          });
          expect(part.amountCents).toBeGreaterThanOrEqual(0);
          expect(sum(part.taxLines.map((line) => line.amountCents))).toBe(part.taxCents);
          // Its credit note states exactly what came back.
          expect(refundMoney(money, part).totalCents).toBe(part.amountCents);
          expect(refundMoney(money, part).taxCents).toBe(part.taxCents);
          paidBack += part.amountCents;
          expect(paidBack).toBeLessThanOrEqual(money.totalCents);
        });
        expect(paidBack).toBe(money.totalCents);
      }),
    );
  });

  it('pays back a line without shipping, and shipping with its tax when added', () => {
    // $30.00 and $10.00, $10.00 off, $5.00 shipping, 10% added on goods and shipping.
    const { money, lines } = placed({
      lineCents: [3000, 1000],
      shippingCents: 500,
      discount: 1000,
      freeShipping: false,
      tax: {
        pricesIncludeTax: false,
        taxShipping: true,
        rates: [{ name: 'Tax', country: 'US', region: null, postalPrefix: null, rate: rateScale / 10 }],
      },
    });
    expect(money.totalCents).toBe(3000 + 1000 - 1000 + 500 + 350);
    const first = lines[0] as (typeof lines)[number];
    // $30.00 less $7.50 of the discount, with its $2.25 of tax.
    expect(refundOf({ money, allLines: lines, lines: [first], shipping: false })).toMatchObject({
      amountCents: 2475,
      goodsCents: 3000,
      discountCents: 750,
      shippingCents: 0,
      taxCents: 225,
    });
    expect(shippingDueOf(money, lines)).toBe(550);
  });
});
