import { sumCents } from './money';
import { settings } from './settings';

export interface OrderTotals {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

/** What an order of these prices costs: the subtotal, the shipping (free from a threshold) and the total. */
export function orderTotals(priceCents: readonly number[]): OrderTotals {
  const subtotalCents = sumCents(priceCents);
  const { flatCents, freeFromCents } = settings.shipping;
  const shippingCents = subtotalCents >= freeFromCents ? 0 : flatCents;
  return { subtotalCents, shippingCents, totalCents: subtotalCents + shippingCents };
}
