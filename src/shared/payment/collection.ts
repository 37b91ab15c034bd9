import { shopAddressText } from '../address';
import { brand } from '../brand';
import { formatCents } from '../money';
import type { PaymentMethod } from './payment-method';

/** The rider collects the order at the shop's yard and pays there. */
export const collection = {
  id: 'collection',
  label: 'Pay on collection',
  summary: () => 'Collect your order at our yard and pay there.',
  delivery: 'collection',
  howToPay: ({ number, totalCents }, { shop }) => ({
    intro:
      `Collect your order at our yard and pay ${formatCents(totalCents, brand)} there. ` +
      `Please call us first to arrange a time, and bring your order number.`,
    details: [
      ['Yard', shopAddressText(shop.address)],
      ['Phone', shop.phone],
      ['Order number', number],
      ['Amount to pay', formatCents(totalCents, brand)],
    ],
  }),
} as const satisfies PaymentMethod;
