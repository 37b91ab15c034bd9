import type { AddressField } from '../../../shared/address';
import { deliveries, deliveryLabels } from '../../../shared/delivery';
import { formatCents, type MoneyFormat } from '../../../shared/money';
import type { ShippingOption } from '../../../shared/shipping';

// The checkout form's fixed parts (checkout-page.tsx): its fields' autocomplete, its choices and what it says.

/** The address fields' autocomplete tokens. */
export const autoComplete = {
  fullName: 'name',
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  region: 'address-level1',
  postalCode: 'postal-code',
  country: 'country',
  phone: 'tel',
} as const;

export const deliveryOptions = deliveries.map((d) => [d, deliveryLabels[d]] as const);

/** The fields collecting at the yard asks for: a name and a phone (docs/product.md §18). */
export const collectionFields: readonly AddressField[] = ['fullName', 'phone'];

/** What a row the server refused says, by the refusal's code. */
export const rowProblems: Readonly<Record<string, string>> = {
  'order/sold-out': 'Sold out in this size.',
  'order/size-missing': 'No size chosen.',
  'order/unavailable': 'No longer available.',
};

/** A delivery method's price ('Free' when none) and its estimate, as the choice shows them. */
export function priceAndEstimate(option: ShippingOption, format: MoneyFormat): string {
  return [option.cents === 0 ? 'Free' : formatCents(option.cents, format), option.estimate].filter(Boolean).join(' · ');
}

/** A key made once per checkout page: the same key never makes a second order (crypto.randomUUID needs https). */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
