import type { Order } from '../../../shared/orders';
import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the owner marks an order paid. */
export function orderPaid({ order }: { order: Order }, site: Site): Letter {
  return {
    subject: `We have your payment for order ${order.number}`,
    greeting: 'Hello,',
    blocks: [
      `Thank you: your payment for order ${order.number} has arrived. We are packing your order now and will write again when it is on its way.`,
      // Not the PDF's own address: the API answers a signed-out browser with 401; the order's page signs them in.
      ...(order.invoice
        ? [`Your invoice ${order.invoice} is ready: your order's page offers it, 'Download invoice (PDF)'.`]
        : []),
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
