import { formatDate } from '../dates';
import type { ShopFormat } from '../settings';
import { amountToPay, type PaymentMethod } from './payment-method';

/** The rider transfers the total to the shop's account within a few days, with the order number as reference. */
export const bankTransfer = {
  id: 'bank-transfer',
  label: 'Bank transfer',
  summary: ({ bankTransfer: bank }) =>
    `Pay within ${bank.payWithinDays} days by bank transfer. We show the bank details once you have ordered.`,
  howToPay: ({ number, money }, { bankTransfer: bank, format }) => ({
    intro:
      `Please transfer ${amountToPay(money, format)} within ${bank.payWithinDays} days to the account below, ` +
      `with your order number as the reference. We send your order once the money has arrived.` +
      (bank.cancelUnpaid
        ? ` If it has not arrived after ${bank.payWithinDays} days, we remind you once, and cancel the order ` +
          `${bank.payWithinDays} days after the reminder.`
        : ''),
    details: [
      ['Account name', bank.accountName],
      ['Bank', bank.bankName],
      ['Routing number', bank.routingNumber],
      ['Account number', bank.accountNumber],
      ['Reference', number],
      ['Amount', amountToPay(money, format)],
    ],
  }),
} as const satisfies PaymentMethod;

/**
 * The last day to pay that a reminder gave (`Nov 24, 2026`): the shop's day that ends at `payBy` (an order's
 * `reminder.payBy`, ISO 8601), in the shop's time zone, wherever it is read.
 */
export function lastDayToPay(payBy: string, { locale, timeZone }: ShopFormat): string {
  return formatDate(new Date(Date.parse(payBy) - 1).toISOString(), locale, timeZone);
}
