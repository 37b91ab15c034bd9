import type { Order } from '../../../shared/orders';
import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the owner marks an order shipped, with the owner's note (a tracking number, say). */
export function orderShipped({ order, note }: { order: Order; note: string }, site: Site): Letter {
  return {
    subject: `Your order ${order.number} is on its way`,
    greeting: 'Hello,',
    blocks: [
      `Your order ${order.number} has left our yard.`,
      ...(note ? [{ facts: [['Note from the shop', note]] as const }] : []),
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
