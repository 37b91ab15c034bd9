import type { Letter, Site } from '../message';
import { links } from './links';

/**
 * Sent when the owner settles a received return: what was paid back (and its credit note), and the order that sends
 * the sizes exchanged.
 */
export function returnSettled(
  {
    number,
    order,
    refund,
    creditNote,
    exchangeOrder,
  }: { number: string; order: string; refund: string | null; creditNote: string | null; exchangeOrder: string | null },
  site: Site,
): Letter {
  return {
    subject: refund ? `Your refund for return ${number}` : `Your exchange for return ${number} is on its way`,
    greeting: 'Hello,',
    blocks: [
      `Your return ${number} for order ${order} has arrived.`,
      ...(refund ? [`We have refunded you ${refund}.`] : []),
      ...(creditNote ? [`Your credit note ${creditNote} is on your order's page.`] : []),
      ...(exchangeOrder
        ? [`The sizes you asked for go out as order ${exchangeOrder}, at no charge; we will write when it ships.`]
        : []),
      { link: links.order(site, order), label: 'See your order' },
    ],
  };
}
