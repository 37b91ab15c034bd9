import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the owner refuses a return, with the reason. */
export function returnRefused(
  { number, order, reason }: { number: string; order: string; reason: string },
  site: Site,
): Letter {
  return {
    subject: `Your return ${number} was not accepted`,
    greeting: 'Hello,',
    blocks: [
      `We are sorry: we cannot accept your return ${number} for order ${order}.`,
      { facts: [['Reason', reason]] },
      `Questions? Call us at ${site.shop.shop.phone}.`,
      { link: links.order(site, order), label: 'See your order' },
    ],
  };
}
