import type { OrderMoney } from '../../src/shared/pricing';

/** The methods of a new shop a test's order goes by: its one zone's, and collection. */
export const standard = { name: 'Standard', estimate: '' };
export const atTheYard = { name: 'Collect at the yard', estimate: '' };

/**
 * An order's money in a shop without tax of its own (a new shop's): the parts given, in US dollars, and the sums the
 * pricing makes of them (no tax: the net is the total).
 */
export function untaxed(parts: Omit<OrderMoney, 'currency' | 'taxCents' | 'netCents'>): OrderMoney {
  return { currency: 'USD', ...parts, taxCents: 0, netCents: parts.totalCents };
}
