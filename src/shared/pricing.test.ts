import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sumCents } from './money';
import { type OrderMoney, priceOrder } from './pricing';

const cents = fc.integer({ min: 0, max: 10_000_000 });
const input = fc.record({
  lineCents: fc.array(cents, { maxLength: 50 }),
  shipping: fc.record({ flatCents: cents, freeFromCents: fc.option(cents, { nil: null }) }),
  adjustments: fc.array(
    fc.record({ label: fc.string(), amountCents: fc.integer({ min: -20_000_000, max: 1_000_000 }) }),
    { maxLength: 4 },
  ),
});

/** Every part of an order's money that the total is made of. */
function parts(money: OrderMoney): number[] {
  return [
    money.subtotalCents,
    money.shippingCents,
    ...money.adjustments.map((a) => a.amountCents),
    ...money.taxLines.filter((t) => !t.included).map((t) => t.amountCents),
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
      }),
    );
  });

  it('charges the flat shipping below the free-from subtotal, and none from it', () => {
    fc.assert(
      fc.property(input, ({ lineCents, shipping }) => {
        const { subtotalCents, shippingCents } = priceOrder({ lineCents, shipping, adjustments: [] });
        const free = shipping.freeFromCents !== null && subtotalCents >= shipping.freeFromCents;
        expect(shippingCents).toBe(free ? 0 : shipping.flatCents);
      }),
    );
  });

  it('lowers the goods to zero at most, and keeps what each adjustment took', () => {
    const money = priceOrder({
      lineCents: [30299, 29900],
      shipping: { flatCents: 2500, freeFromCents: 50000 },
      adjustments: [
        { label: 'Ten off', amountCents: -1000 },
        { label: 'Everything off', amountCents: -100_000 },
      ],
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
    });
  });

  it("prices today's shop as before: $25.00 shipping, free from $500.00", () => {
    const shipping = { flatCents: 2500, freeFromCents: 50000 };
    expect(priceOrder({ lineCents: [], shipping, adjustments: [] }).totalCents).toBe(2500);
    expect(priceOrder({ lineCents: [49999], shipping, adjustments: [] }).totalCents).toBe(52499);
    expect(priceOrder({ lineCents: [25000, 25000], shipping, adjustments: [] }).totalCents).toBe(50000);
  });
});
