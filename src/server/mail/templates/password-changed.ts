import { brand } from '../../../shared/brand';
import type { Letter, Site } from '../message';
import { links } from './links';

/** Sent when the password is changed or reset. */
export function passwordChanged(_: Record<string, never>, site: Site): Letter {
  return {
    subject: 'Your password has been changed',
    greeting: 'Hello,',
    blocks: [
      'The password of your account has just been changed, and every device that was logged in has been logged out.',
      `If this was not you, choose a new password at once with the link below, and call us at ${brand.phone}.`,
      { link: links.resetPassword(site), label: 'Reset your password' },
    ],
  };
}
