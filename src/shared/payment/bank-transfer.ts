import { brand } from '../brand';
import { formatCents } from '../money';
import type { PaymentMethod } from './payment-method';

/** The rider transfers the total to the shop's account within a few days, with the order number as reference. */
export const bankTransfer = {
  id: 'bank-transfer',
  label: 'Bank transfer',
  summary: ({ bankTransfer: bank }) =>
    `Pay within ${bank.payWithinDays} days by bank transfer. We show the bank details once you have ordered.`,
  howToPay: ({ number, totalCents }, { bankTransfer: bank }) => ({
    intro:
      `Please transfer ${formatCents(totalCents, brand)} within ${bank.payWithinDays} days to the account below, ` +
      `with your order number as the reference. We send your order once the money has arrived.`,
    details: [
      ['Account name', bank.accountName],
      ['Bank', bank.bankName],
      ['Routing number', bank.routingNumber],
      ['Account number', bank.accountNumber],
      ['Reference', number],
      ['Amount', formatCents(totalCents, brand)],
    ],
  }),
} as const satisfies PaymentMethod;
