/**
 * How an order reaches the rider (docs/product.md §8), chosen apart from how it is paid: shipped to the address, or
 * collected at the shop's yard, which costs no shipping. Which methods ship to an address, and at what price, is
 * the owner's shipping zones' (src/shared/shipping.ts).
 */
export const deliveries = ['shipping', 'collection'] as const;
export type Delivery = (typeof deliveries)[number];

/** Each delivery's name on the checkout form and the order. */
export const deliveryLabels: Record<Delivery, string> = {
  shipping: 'Ship to my address',
  collection: 'Collect at the yard',
};
