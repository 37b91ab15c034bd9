/**
 * An order's discount and tax spread over its lines (docs/product.md §8, "An order's money";
 * docs/decisions/0062-money-per-line.md): by largest remainder, so that the lines' shares add up to the order's
 * figures to the cent, each share within one cent of its proportional value. Pure; `arithmetic.ts` calls it for every
 * price, so that the quote and the order spread alike.
 */
import type { Adjustment } from '../../shared/pricing';
import type { TaxLine } from '../../shared/tax';

/**
 * `amountCents` (a whole number, zero or more) in whole shares proportional to `weights` (whole numbers, zero or
 * more): each share is its proportional value rounded down, and the cents left go one each to the largest
 * remainders, the earlier weight first among equal remainders. Weights that are all zero share equally. The shares
 * add up to `amountCents` exactly; none is negative.
 */
export function spreadCents(amountCents: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError(`Cannot spread ${amountCents}`);
  if (weights.some((weight) => !Number.isSafeInteger(weight) || weight < 0)) {
    throw new RangeError(`Cannot spread over ${weights.join(', ')}`);
  }
  if (weights.length === 0) {
    if (amountCents === 0) return [];
    throw new RangeError(`Cannot spread ${amountCents} over nothing`);
  }
  const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  const by = total === 0n ? weights.map(() => 1n) : weights.map((weight) => BigInt(weight));
  const whole = total === 0n ? BigInt(weights.length) : total;
  const amount = BigInt(amountCents);
  const floors = by.map((weight) => (amount * weight) / whole);
  const remainders = by.map((weight) => (amount * weight) % whole);
  let left = Number(amount - floors.reduce((sum, share) => sum + share, 0n));
  // Largest remainder first; among equals, the earlier line (a stable sort keeps the lines' order).
  const order = by
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a] as bigint;
      const rb = remainders[b] as bigint;
      return ra === rb ? 0 : ra > rb ? -1 : 1;
    });
  const shares = floors.map(Number);
  for (const index of order) {
    if (left === 0) break;
    shares[index] = (shares[index] as number) + 1;
    left -= 1;
  }
  return shares;
}

/** One line's part of its order's money: what the discount took off it, and the tax it carries (added or contained). */
export interface LineShare {
  discountCents: number;
  taxCents: number;
}

/** What an order's lines carry of its discount and tax, and the part of the tax that is shipping's. */
export interface Spread {
  lines: LineShare[];
  /** The order's tax that no line carries: shipping's, when the shop taxes shipping (else zero). */
  shippingTaxCents: number;
}

export interface SpreadInput {
  lineCents: readonly number[];
  shippingCents: number;
  /** The adjustments as applied (each took what it could, never below zero). */
  adjustments: readonly Adjustment[];
  taxLines: readonly TaxLine[];
  /** Whether the tax lines were charged on shipping too. */
  taxShipping: boolean;
}

/**
 * The discount over the lines by their prices; then each tax line over the lines by what they cost after their
 * discount (and over shipping, when it was taxed), summed per line.
 */
export function spreadOrder({ lineCents, shippingCents, adjustments, taxLines, taxShipping }: SpreadInput): Spread {
  const discountCents = -adjustments.reduce((sum, adjustment) => sum + adjustment.amountCents, 0);
  const discounts = spreadCents(Math.max(0, discountCents), lineCents);
  const nets = lineCents.map((cents, i) => Math.max(0, cents - (discounts[i] as number)));
  // Shipping is one more weight when it was taxed; an order of no lines and untaxed shipping has nothing to spread over.
  const weights = taxShipping ? [...nets, shippingCents] : nets;
  const taxes = lineCents.map(() => 0);
  let shippingTaxCents = 0;
  for (const line of taxLines) {
    const shares = weights.length === 0 ? [] : spreadCents(line.amountCents, weights);
    for (let i = 0; i < taxes.length; i++) taxes[i] = (taxes[i] as number) + (shares[i] as number);
    shippingTaxCents += line.amountCents - shares.slice(0, taxes.length).reduce((sum, share) => sum + share, 0);
  }
  return {
    lines: lineCents.map((_, i) => ({ discountCents: discounts[i] as number, taxCents: taxes[i] as number })),
    shippingTaxCents,
  };
}
