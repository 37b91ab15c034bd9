import { emailKey } from '../db/sql-store';
import type { LoginAttemptStore } from '../db/store';

/**
 * Failed log-ins are counted per e-mail address and per client address in the database, so every
 * server sees the same counts. See docs/decisions/0006-login-throttling.md for the limits and why.
 */
export const throttlePolicy = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerEmail: 5,
  maxFailuresPerAddress: 50,
} as const;

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(store: LoginAttemptStore, policy = throttlePolicy) {
  const addressKey = (address: string) => `address:${address}`;
  const keysOf = (email: string, address: string) => [emailKey(email), addressKey(address)];

  return {
    /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
    async retryAfter(email: string, address: string, now = Date.now()): Promise<number> {
      const counts = await store.failures(keysOf(email, address), now - policy.windowMs);
      let blockedUntil = 0;
      const limitOf = (key: string) =>
        key.startsWith('email:') ? policy.maxFailuresPerEmail : policy.maxFailuresPerAddress;
      for (const [key, { failures, windowStartedAt }] of counts) {
        if (failures >= limitOf(key)) blockedUntil = Math.max(blockedUntil, windowStartedAt + policy.windowMs);
      }
      return blockedUntil > now ? Math.ceil((blockedUntil - now) / 1000) : 0;
    },

    async failed(email: string, address: string, now = Date.now()): Promise<void> {
      await store.recordFailure(keysOf(email, address), now, now - policy.windowMs);
    },

    async succeeded(email: string): Promise<void> {
      await store.clear([emailKey(email)]);
    },
  };
}
