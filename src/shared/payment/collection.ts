import { shopAddressText } from '../address';
import { amountToPay, type PaymentMethod } from './payment-method';

/** The rider collects the order at the shop's yard and pays there. */
export const collection = {
  id: 'collection',
  label: 'Pay on collection',
  summary: () => 'Collect your order at our yard and pay there.',
  delivery: 'collection',
  howToPay: ({ number, money }, { shop, format }) => ({
    intro:
      `Collect your order at our yard and pay ${amountToPay(money, format)} there. ` +
      `Please call us first to arrange a time, and bring your order number.`,
    details: [
      ['Yard', shopAddressText(shop.address, format.locale)],
      ['Phone', shop.phone],
      ['Order number', number],
      ['Amount to pay', amountToPay(money, format)],
    ],
  }),
} as const satisfies PaymentMethod;
