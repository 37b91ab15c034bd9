import type { Actor, Order } from '../../../shared/orders';
import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the rider, the owner or the shop (a card payment not made in time) cancels an order, with the reason. */
export function orderCancelled({ order, note, by }: { order: Order; note: string; by: Actor }, site: Site): Letter {
  return {
    subject: `Your order ${order.number} is cancelled`,
    greeting: 'Hello,',
    blocks: [
      by === 'rider'
        ? `As you asked, we have cancelled your order ${order.number}.`
        : `We have cancelled your order ${order.number}.`,
      ...(note ? [{ facts: [['Reason', note]] as const }] : []),
      `If you have already paid, we will refund you. Questions? Call us at ${site.shop.shop.phone}.`,
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
