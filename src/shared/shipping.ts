/**
 * Delivery as both sides name it (docs/product.md §18, docs/decisions/0035-shipping-zones.md): a method as the checkout
 * lists it and the order keeps it, and what a rider is told of one. Which methods an address has and what they cost
 * is the server's (src/server/pricing/).
 */
import { countryName } from './address';
import { formatCents, type MoneyFormat } from './money';

/** A delivery method as the checkout lists it and the order keeps it. */
export interface ShippingOption {
  /** A zone method's id, or `collectionMethodId`. */
  id: string;
  name: string;
  cents: number;
  /** '3 to 5 working days'; empty when the owner gave none. */
  estimate: string;
}

/** 'Collect at the yard': its name on the checkout, the order, e-mails and the CSV. */
export const collectionName = 'Collect at the yard';

/** What a rider outside every zone is told, at checkout and by the refused order. */
export function notShippedMessage(country: string): string {
  return `We do not ship to ${countryName(country)} yet.`;
}

/** What a rider whose method's price changed is told: the price now. */
export function shippingChangedMessage(option: ShippingOption, format: MoneyFormat): string {
  const price = option.cents === 0 ? 'free' : formatCents(option.cents, format);
  return `${option.name} is now ${price}: the price changed since this page showed it. Please check your order and place it again.`;
}
