/**
 * How an order reaches the rider (docs/product.md §8), chosen apart from how it is paid: shipped to the address, or
 * collected at the shop's yard, which costs no shipping. Shipping zones and their methods (DECISIONS.md §18) will
 * be more of these.
 */
import type { ShippingRate } from './pricing';

export const deliveries = ['shipping', 'collection'] as const;
export type Delivery = (typeof deliveries)[number];

/** Each delivery's name on the checkout form and the order. */
export const deliveryLabels: Record<Delivery, string> = {
  shipping: 'Ship to my address',
  collection: 'Collect at the yard',
};

/**
 * What shipping costs: a flat fee per order, free from a subtotal. Fixed in code until the owner's shipping zones
 * (DECISIONS.md §18) replace it.
 */
export const shopShipping = { flatCents: 2500, freeFromCents: 50000 } as const satisfies ShippingRate;

/** What a delivery costs: shipping at the shop's rate, collection nothing. */
export function shippingRateOf(delivery: Delivery, shipping: ShippingRate): ShippingRate {
  return delivery === 'collection' ? { flatCents: 0, freeFromCents: null } : shipping;
}
