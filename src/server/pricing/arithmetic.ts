/**
 * An order's price as arithmetic (docs/product.md §8, §16, §19): the goods, a discount code's effect on them, the
 * delivery's price and the tax lines, to the cent. Pure: `pricing.ts` passes the settings' parts that apply.
 */
import type { DiscountGives } from '../../shared/discounts';
import { sumCents } from '../../shared/money';
import type { Adjustment } from '../../shared/pricing';
import type { TaxLine } from '../../shared/tax';
import { type Spread, spreadOrder } from './spread';
import { type TaxInput, taxLines } from './tax';

/** What a discount code does to an order's price: an adjustment that names it, and whether shipping is free. */
export interface DiscountEffect {
  adjustments: Adjustment[];
  freeShipping: boolean;
}

/** No code: the price as it is. */
export const noDiscount: DiscountEffect = { adjustments: [], freeShipping: false };

/**
 * The adjustment of a code on goods of `subtotalCents`: a percentage rounded half up to the cent, or the amount
 * (`priceOrder` takes the goods to zero at most); free shipping takes nothing off the goods and makes the delivery's
 * price zero.
 */
export function discountEffect(code: string, gives: DiscountGives, subtotalCents: number): DiscountEffect {
  if (gives.kind === 'free-shipping') {
    return { adjustments: [{ label: `Discount ${code} (free shipping)`, amountCents: 0, code }], freeShipping: true };
  }
  const off = gives.kind === 'percent' ? Math.floor((subtotalCents * gives.percent + 50) / 100) : gives.amountCents;
  return { adjustments: [{ label: `Discount ${code}`, amountCents: -off, code }], freeShipping: false };
}

export interface PricingInput {
  /** Each line's price, in cents. */
  lineCents: readonly number[];
  /** The delivery method's price for this order (shipping.ts: its zone, the cart's weight and subtotal). */
  shippingCents: number;
  /** Applied in order; a reduction lowers the goods to zero at most, and the breakdown keeps what it took. */
  adjustments: readonly Adjustment[];
  /** A discount code's free shipping: the delivery chosen costs nothing. */
  freeShipping?: boolean;
  /** The shop's tax and the rates that apply to the place: charged on the goods after the adjustments. */
  tax: TaxInput;
}

/** The whole breakdown of an order: its lines, the subtotal, shipping, adjustments, tax lines and the total. */
export interface Breakdown {
  lineCents: number[];
  subtotalCents: number;
  shippingCents: number;
  adjustments: Adjustment[];
  taxLines: TaxLine[];
  totalCents: number;
  /** The discount and the tax as the lines carry them (spread.ts), adding up to the order's to the cent. */
  spread: Spread;
}

export function priceOrder({
  lineCents,
  shippingCents: methodCents,
  adjustments,
  freeShipping,
  tax,
}: PricingInput): Breakdown {
  const subtotalCents = sumCents(lineCents);
  const shippingCents = freeShipping ? 0 : methodCents;
  let goodsCents = subtotalCents;
  const applied = adjustments.map((adjustment) => {
    const taken = Math.max(adjustment.amountCents, -goodsCents);
    goodsCents += taken;
    return { ...adjustment, amountCents: taken };
  });
  const lines = taxLines(goodsCents, shippingCents, tax);
  const addedCents = sumCents(lines.filter((line) => !line.included).map((line) => line.amountCents));
  const spread = spreadOrder({
    lineCents,
    shippingCents,
    adjustments: applied,
    taxLines: lines,
    taxShipping: tax.taxShipping,
  });
  return {
    lineCents: [...lineCents],
    subtotalCents,
    shippingCents,
    adjustments: applied,
    taxLines: lines,
    totalCents: goodsCents + shippingCents + addedCents,
    spread,
  };
}
