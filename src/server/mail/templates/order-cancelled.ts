import { brand } from '../../../shared/brand';
import type { Order } from '../../../shared/orders';
import type { Role } from '../../../shared/roles';
import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the rider or the owner cancels an order, with the reason. */
export function orderCancelled({ order, note, by }: { order: Order; note: string; by: Role }, site: Site): Letter {
  return {
    subject: `Your order ${order.number} is cancelled`,
    greeting: 'Hello,',
    blocks: [
      by === 'rider'
        ? `As you asked, we have cancelled your order ${order.number}.`
        : `We have cancelled your order ${order.number}.`,
      ...(note ? [{ facts: [['Reason', note]] as const }] : []),
      `If you have already paid, we will refund you. Questions? Call us at ${brand.phone}.`,
      { link: links.order(site, order.number), label: 'See your order' },
    ],
  };
}
