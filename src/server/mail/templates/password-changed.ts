import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the password is changed or reset (a reset through the e-mailed link also removes every passkey). */
export function passwordChanged({ passkeysRemoved }: { passkeysRemoved?: boolean }, site: Site): Letter {
  return {
    subject: 'Your password has been changed',
    greeting: 'Hello,',
    blocks: [
      `The password of your account has just been changed, and every device that was logged in has been logged out${passkeysRemoved ? ', and every passkey of the account has been removed: add yours again from your account page' : ''}.`,
      `If this was not you, choose a new password at once with the link below, and call us at ${site.shop.shop.phone}.`,
      { link: links.resetPassword(site), label: 'Reset your password' },
    ],
  };
}
