import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when a reset is asked for an existing account: the single-use link, valid for one hour. */
export function passwordReset({ token }: { token: string }, site: Site): Letter {
  return {
    subject: 'Reset your password',
    greeting: 'Hello,',
    blocks: [
      'Someone, probably you, asked to reset the password of your account. This link lets you choose a new one. It works once, for one hour.',
      { link: links.resetPassword(site, token), label: 'Choose a new password' },
      'A new password logs out every device and removes every passkey of the account: add your passkeys again afterwards.',
      'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
    ],
  };
}
