import { formatDate } from '../../../shared/dates';
import type { Order } from '../../../shared/orders';
import { bankTransfer, lastDayToPay } from '../../../shared/payment/bank-transfer';
import { amountToPay } from '../../../shared/payment/payment-method';
import type { Letter, Site } from '../message';
import { links } from './links';

/**
 * Sent once when a bank-transfer order is still unpaid after the days to pay (docs/product.md §8): the last day to
 * pay (`payBy`, the end of that day), what the shop does after it, and the bank details again.
 */
export function paymentReminder({ order, payBy }: { order: Order; payBy: string }, site: Site): Letter {
  const { format } = site.shop;
  const placed = formatDate(order.placedAt, format.locale, format.timeZone);
  return {
    subject: `Reminder: your order ${order.number} is waiting for payment`,
    greeting: 'Hello,',
    blocks: [
      `We have not yet received your bank transfer for order ${order.number}, placed on ${placed}.`,
      `Please transfer ${amountToPay(order.money, format)} by ${lastDayToPay(payBy, format)}. If it has not arrived by ` +
        'the end of that day, we cancel the order and its items go back on the shelf. This is the only reminder.',
      { facts: bankTransfer.howToPay(order, site.shop).details },
      `If you have already paid, thank you: a transfer can take a few days to reach us. Questions? Call us at ${site.shop.shop.phone}.`,
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
