import { discountLimits } from '../../shared/discounts';
import type { UnitOfWork } from '../db/database';
import { addressGroup } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { Logger } from '../log';
import type { LoginAttemptStore } from './login-attempt-store';

/**
 * Log-in attempts are counted per e-mail address, per client address and per known device, sign-ups and
 * password-reset requests per client address and per e-mail, and passkey log-in challenges per client address, in the
 * database, so every server sees the same counts. See
 * docs/decisions/0006-login-throttling.md for the limits, the device cookie and why.
 */
export const throttlePolicy = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerEmail: 5,
  maxFailuresPerAddress: 50,
  maxFailuresPerDevice: 10,
  /** Every sign-up counts (each costs a password hash and makes an account), successful or not. */
  maxSignUpsPerAddress: 10,
  /** Bounds how often one address can be probed for an account (the `auth/email-already-in-use` answer). */
  maxSignUpsPerEmail: 5,
  /** Password-reset requests, counted whether an account exists or not (docs/product.md §10). */
  maxResetsPerAddress: 10,
  /** Bounds the reset e-mails one mailbox can be sent. */
  maxResetsPerEmail: 3,
  /** 'Send it again' for the link that confirms an address (docs/product.md §15), per client address. */
  maxConfirmationsPerAddress: 10,
  /** Bounds the confirmation e-mails one account (its address) can be sent; sign-up's own link is not counted. */
  maxConfirmationsPerEmail: 3,
  /**
   * Challenges for a passkey log-in, asked anonymously (each is a row until it expires), per client address: the
   * log-in form asks for one each time it opens, so an office's riders opening it four times a minute still pass.
   */
  maxPasskeyChallengesPerAddress: 60,
  /** Discount codes tried that did not work (a code is a secret worth money), per account and per client address. */
  maxDiscountGuessesPerAccount: discountLimits.guessesPerAccount,
  maxDiscountGuessesPerAddress: discountLimits.guessesPerAddress,
} as const;

export type ThrottlePolicy = { [K in keyof typeof throttlePolicy]: number };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/** What a rider who asks too often for a link to confirm an address is told, with when to ask again (Retry-After). */
export const tooManyLinks =
  'We have sent you several links in the last few minutes. Please look for them in your inbox (and your spam folder), or try again later.';

/** The answer to a refused attempt: 429 `auth/too-many-requests`, and when to try again. */
export function tooManyRequests(retryAfter: number, message?: string): HttpError {
  return new HttpError('auth/too-many-requests', message, { 'Retry-After': String(retryAfter) });
}

/** The outcome of `begin`: go ahead (and report a success), or wait `retryAfter` seconds. */
export type Attempt = { allowed: true; succeeded(): Promise<void> } | { allowed: false; retryAfter: number };
type Refusal = Extract<Attempt, { allowed: false }>;

export interface AttemptOf {
  email: string;
  /** The client's address, as `clientAddress` gives it; grouped here (IPv6 by /64). */
  address: string;
  /** The id of a valid device cookie for this e-mail, if the request carried one. */
  device?: string;
  /** The request's log. */
  log: Logger;
}

/** Expired counters are deleted at most this often, by whichever log-in comes along. */
const pruneEveryMs = 60_000;

function emailKey(email: string): string {
  return `email:${email.toLowerCase()}`;
}

function addressKey(address: string): string {
  return `address:${addressGroup(address)}`;
}

/** Requests counted per client address and per e-mail, whatever comes of them: each costs the shop work. */
export type CountedRequest = 'signup' | 'reset' | 'confirm';

function requestKeys(kind: CountedRequest, email: string, address: string) {
  return { byAddress: `${kind}-address:${addressGroup(address)}`, byEmail: `${kind}-email:${email.toLowerCase()}` };
}

function deviceKey(device: string): string {
  return `device:${device}`;
}

export function createLoginThrottle(store: LoginAttemptStore, policy: ThrottlePolicy = throttlePolicy) {
  let lastPrune = 0;
  const requestLimits: Record<CountedRequest, { perAddress: number; perEmail: number }> = {
    signup: { perAddress: policy.maxSignUpsPerAddress, perEmail: policy.maxSignUpsPerEmail },
    reset: { perAddress: policy.maxResetsPerAddress, perEmail: policy.maxResetsPerEmail },
    confirm: { perAddress: policy.maxConfirmationsPerAddress, perEmail: policy.maxConfirmationsPerEmail },
  };

  function refuse(windowStartedAt: number, now: number): Refusal {
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((windowStartedAt + policy.windowMs - now) / 1000)) };
  }

  async function prune(now: number, log: Logger) {
    if (now - lastPrune < pruneEveryMs) return;
    lastPrune = now;
    await store.prune(now - policy.windowMs).catch((err) => log.warn({ err }, 'pruning log-in counters failed'));
  }

  return {
    /**
     * Counts the attempt before the password is checked, atomically, and says whether it may go ahead. Each
     * attempt takes a number, so however many arrive at once, no more than the limit get to try a password.
     * Every attempt counts until it proves to be good: `succeeded` gives it back.
     */
    async begin({ email, address, device, log }: AttemptOf, now = Date.now()): Promise<Attempt> {
      await prune(now, log);
      const since = now - policy.windowMs;
      if (device) {
        // A browser that has logged in as this e-mail before: neither the address nor the e-mail count applies.
        const key = deviceKey(device);
        const hit = await store.hit(key, now, since);
        if (hit.count > policy.maxFailuresPerDevice) return refuse(hit.windowStartedAt, now);
        return { allowed: true, succeeded: () => store.clear([key]) };
      }
      // The address first: an attempt it refuses does not use up the e-mail's count, while attempts on a
      // locked e-mail still use up the address's (someone trying many e-mails from one place).
      const byAddress = addressKey(address);
      const fromAddress = await store.hit(byAddress, now, since);
      if (fromAddress.count > policy.maxFailuresPerAddress) return refuse(fromAddress.windowStartedAt, now);
      const byEmail = emailKey(email);
      const forEmail = await store.hit(byEmail, now, since);
      if (forEmail.count > policy.maxFailuresPerEmail) return refuse(forEmail.windowStartedAt, now);
      return {
        allowed: true,
        async succeeded() {
          await store.clear([byEmail]);
          // Successful log-ins do not count against the people sharing the address.
          await store.giveBack(byAddress);
        },
      };
    },

    /**
     * Counts a sign-up (before its password is hashed) or a password-reset request; undefined when it may go
     * ahead, else the refusal.
     */
    async beginRequest(
      kind: CountedRequest,
      { email, address, log }: Omit<AttemptOf, 'device'>,
      now = Date.now(),
    ): Promise<Refusal | undefined> {
      await prune(now, log);
      const since = now - policy.windowMs;
      const { byAddress, byEmail } = requestKeys(kind, email, address);
      const fromAddress = await store.hit(byAddress, now, since);
      if (fromAddress.count > requestLimits[kind].perAddress) return refuse(fromAddress.windowStartedAt, now);
      const forEmail = await store.hit(byEmail, now, since);
      if (forEmail.count > requestLimits[kind].perEmail) return refuse(forEmail.windowStartedAt, now);
      return undefined;
    },

    /**
     * Counts a challenge for a passkey log-in, which names no account, per client address; undefined when it may go
     * ahead, else the refusal.
     */
    async beginPasskeyChallenge({ address, log }: Pick<AttemptOf, 'address' | 'log'>, now = Date.now()) {
      await prune(now, log);
      const hit = await store.hit(`passkey-address:${addressGroup(address)}`, now, now - policy.windowMs);
      if (hit.count > policy.maxPasskeyChallengesPerAddress) return refuse(hit.windowStartedAt, now);
      return undefined;
    },

    /**
     * Counts a discount code tried (at 'Apply', or with an order) per account and per client address, before it is
     * looked up; a code that works gives its attempt back, so only codes that did not work use up the allowance.
     */
    async beginDiscountGuess(
      { uid, address, log }: { uid: string; address: string; log: Logger },
      now = Date.now(),
    ): Promise<Attempt> {
      await prune(now, log);
      const since = now - policy.windowMs;
      const byAddress = `discount-address:${addressGroup(address)}`;
      const fromAddress = await store.hit(byAddress, now, since);
      if (fromAddress.count > policy.maxDiscountGuessesPerAddress) return refuse(fromAddress.windowStartedAt, now);
      const byAccount = `discount-account:${uid}`;
      const forAccount = await store.hit(byAccount, now, since);
      if (forAccount.count > policy.maxDiscountGuessesPerAccount) return refuse(forAccount.windowStartedAt, now);
      return {
        allowed: true,
        async succeeded() {
          await store.giveBack(byAccount);
          await store.giveBack(byAddress);
        },
      };
    },

    /** Forgets the e-mail's counters, as part of `uow` (the account behind it is being deleted). */
    forget(uow: UnitOfWork, email: string): Promise<void> {
      // The links sent to the address stay counted: deleting an account and making it again sends no more of them.
      return store.clear([emailKey(email), requestKeys('signup', email, '').byEmail], uow);
    },
  };
}
