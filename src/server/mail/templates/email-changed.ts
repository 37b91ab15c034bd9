import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent to the old address when the e-mail address of an account is changed. */
export function emailChanged(_: Record<string, never>, site: Site): Letter {
  return {
    subject: 'The e-mail address of your account has been changed',
    greeting: 'Hello,',
    blocks: [
      'The e-mail address of your account has just been changed to a new one. From now on we write to the new address, and this one no longer logs in.',
      `If this was not you, call us at once at ${site.shop.shop.phone}.`,
      { link: links.logIn(site), label: `Go to ${site.shop.shop.name}` },
    ],
  };
}
