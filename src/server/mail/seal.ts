import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A sealed body starts with this; anything else is stored as written. */
const prefix = 'sealed:v1:';
const ivBytes = 12;
const tagBytes = 16;

/** Seals and opens e-mail bodies that carry a secret, such as a password-reset link. */
export interface Seal {
  seal(text: string): string;
  /** The text of a sealed body; any other body as it is. */
  open(stored: string): string;
}

/**
 * An e-mail that carries a secret (a reset link) waits in the outbox sealed with AES-256-GCM, under a key derived
 * from AUTH_SECRET, so the link is never on disk in plain text: not in the database file, its WAL or a backup of
 * it, none of which holds AUTH_SECRET. Once sent, the sealed body is cleared as well (outbox.ts).
 */
export function createSeal(authSecret: string): Seal {
  const key = Buffer.from(hkdfSync('sha256', authSecret, '', 'piaffe outbox seal', 32));
  return {
    seal(text) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
    },
    open(stored) {
      if (!stored.startsWith(prefix)) return stored;
      const bytes = Buffer.from(stored.slice(prefix.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, ivBytes));
      decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
      return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
    },
  };
}
