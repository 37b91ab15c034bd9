import type { Order } from '../../../shared/orders';
import { findPaymentMethod } from '../../../shared/payment/payment-methods';
import type { Letter, Site } from '../message';
import { links } from './links';
import { orderBlocks } from './order-blocks';

/** Sent when an order is placed: the order, and what to do to pay for it. */
export function orderConfirmation({ order }: { order: Order }, site: Site): Letter {
  const pay = findPaymentMethod(order.paymentMethod)?.howToPay(order, site.shop);
  return {
    subject: `Your order ${order.number}`,
    greeting: 'Hello,',
    blocks: [
      `Thank you for your order ${order.number}. This is what you ordered:`,
      ...orderBlocks(order, site),
      ...(pay ? ['How to pay', pay.intro, { facts: pay.details }] : []),
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
