import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent after a sign-up, a change of address and 'Send it again': the single-use link, valid for 24 hours. */
export function confirmEmail({ token }: { token: string }, site: Site): Letter {
  return {
    subject: 'Please confirm your e-mail address',
    greeting: 'Hello,',
    blocks: [
      `Please confirm that this is your address, so that ${site.shop.shop.name} can send your orders here. The link works once, for 24 hours.`,
      { link: links.confirmEmail(site, token), label: 'Confirm my e-mail address' },
      'If you did not make an account with us, you can ignore this e-mail: nothing is ordered with this address until it is confirmed.',
    ],
  };
}
