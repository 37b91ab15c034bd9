import { createHash, randomBytes } from 'node:crypto';

/**
 * What the links the shop e-mails have in common (a password reset, an address confirmation): a random token that
 * only the e-mail holds, of which the database keeps the SHA-256; each link works once, until it expires
 * (docs/decisions/0017-password-reset.md, 0025-confirmed-addresses.md).
 */

/** What a link is now: good to use, or why not. */
export type LinkState = 'valid' | 'invalid' | 'expired' | 'used';

/** Spent and expired links are deleted once they are this old. */
export const keepSpentLinksMs = 24 * 60 * 60 * 1000;

/** A new link's token: 32 random bytes, base64url (the shape `linkTokenSchema` accepts). */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOfToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function stateOfLink(row: { expires_at: number; used_at: number | null } | undefined, now: number): LinkState {
  if (!row) return 'invalid';
  if (row.used_at !== null) return 'used';
  return Number(row.expires_at) <= now ? 'expired' : 'valid';
}
