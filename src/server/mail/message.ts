import { shopAddressText } from '../../shared/address';
import { brand } from '../../shared/brand';
import type { PublicShop } from '../../shared/settings';
import { type Html, html } from './html';

/** An e-mail as it is written to the outbox: the subject, the plain-text part and the HTML part. */
export interface Message {
  subject: string;
  text: string;
  html: string;
}

/** What every template may use besides its own data. */
export interface Site {
  /** PUBLIC_URL: every link in an e-mail starts with it. */
  publicUrl: string;
  /** Who sends it, as the shop's settings say when it is written: the head and the foot of every e-mail. */
  shop: PublicShop;
}

/** One paragraph, or labelled facts shown as a table (bank details, totals). */
export type Block =
  | string
  | { facts: ReadonlyArray<readonly [label: string, value: string]> }
  | { link: string; label: string };

export interface Letter {
  subject: string;
  /** The first line: "Hello," or the like. */
  greeting: string;
  blocks: Block[];
}

function textOf(block: Block): string {
  if (typeof block === 'string') return block;
  if ('link' in block) return `${block.label}: ${block.link}`;
  const width = Math.max(...block.facts.map(([label]) => label.length));
  return block.facts.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join('\n');
}

const styles = {
  body: 'margin:0;padding:0;background:#f6f3ee;font-family:Georgia,serif;color:#2b2118;',
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;',
  brand: 'margin:0;font-size:28px;color:#5b3a29;',
  tagline: 'margin:0 0 24px;font-size:14px;color:#7a6a5c;',
  label: 'padding:2px 16px 2px 0;color:#7a6a5c;vertical-align:top;',
  button:
    'display:inline-block;padding:10px 18px;background:#5b3a29;color:#ffffff;text-decoration:none;border-radius:4px;',
  foot: 'margin-top:32px;font-size:12px;color:#7a6a5c;',
};

function htmlOf(block: Block): Html {
  if (typeof block === 'string') return html`<p>${block}</p>`;
  if ('link' in block) return html`<p><a href="${block.link}" style="${styles.button}">${block.label}</a></p>`;
  return html`<table role="presentation">${block.facts.map(
    ([label, value]) => html`<tr><td style="${styles.label}">${label}</td><td>${value}</td></tr>`,
  )}</table>`;
}

/** A letter as an e-mail in the brand of `shop`: plain text, and simple HTML with the same words. */
export function compose(letter: Letter, site: Site): Message {
  const { shop } = site.shop;
  // The foot of every e-mail: who sent it and how to reach the shop.
  const signature = [
    `${shop.name} · ${brand.tagline}`,
    `${shopAddressText(shop.address, site.shop.format.locale)} · ${shop.phone}`,
  ];
  const text = [letter.greeting, ...letter.blocks.map(textOf), signature.join('\n')].join('\n\n');
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${letter.subject}</title></head>
<body style="${styles.body}"><div style="${styles.card}">
<p style="${styles.brand}">${shop.name}</p><p style="${styles.tagline}">${brand.tagline}</p>
<p>${letter.greeting}</p>
${letter.blocks.map(htmlOf)}
<p style="${styles.foot}">${signature.map((line) => html`${line}<br>`)}</p>
</div></body></html>`;
  return { subject: letter.subject, text: `${text}\n`, html: body.value };
}
