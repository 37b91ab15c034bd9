import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when a rider asks to return lines of an order: the return's number and where to send the parcel. */
export function returnRequested(
  { number, order, lines, address }: { number: string; order: string; lines: string[]; address: string },
  site: Site,
): Letter {
  return {
    subject: `Your return ${number} for order ${order}`,
    greeting: 'Hello,',
    blocks: [
      `We have your return ${number} for order ${order}. Please send these items back, with the return's number on a note in the parcel:`,
      { facts: lines.map((line, i) => [`Item ${i + 1}`, line] as const) },
      { facts: [['Send the parcel to', address]] },
      'We will write again when the parcel has arrived and when your refund or exchange is on its way.',
      { link: links.order(site, order), label: 'See your order' },
    ],
  };
}
