/**
 * The contract's account area (src/shared/api.ts): signing up and in, passwords, the address's confirmation, the
 * rider's sessions and passkeys and back-in-stock alerts.
 */
import './zod-config';
import { z } from 'zod';
import type { Endpoint } from './api-endpoint';
import { liveStreams } from './live-streams';
import {
  authenticationOptionsSchema,
  newPasskeySchema,
  passkeyLogInSchema,
  passkeySchema,
  registrationOptionsSchema,
} from './passkeys';
import { roles } from './roles';
import {
  credentialsSchema,
  linkSchema,
  newEmailSchema,
  newPasswordSchema,
  resetPasswordSchema,
  resetRequestSchema,
  stockAlertRequestSchema,
} from './validation';

/** Who is signed in; `emailConfirmed` until then false after a sign-up or a change of address (§15). */
export const sessionUserSchema = z.object({ uid: z.string(), email: z.string(), emailConfirmed: z.boolean() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * One of the rider's log-ins, as the account page lists them (docs/product.md §4): known by the session's row id,
 * never by its token. `userAgent` is the header the log-in came with (src/shared/user-agent.ts names it), `address`
 * the client address it came from, `lastUsedAt` when it was last used (to within `lastUseStepMinutes`; now, for
 * `current`), all ISO 8601. `current` is the session of the request: 'This device'.
 */
export const accountSessionSchema = z.object({
  id: z.string(),
  userAgent: z.string(),
  address: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/**
 * A rider's open wait for a size out of stock (docs/product.md §27): the product's name and slug and the size's name as
 * they are now, `since` when it was asked for (ISO 8601).
 */
export const stockAlertSchema = z.object({
  id: z.string(),
  itemid: z.string(),
  product: z.string(),
  slug: z.string(),
  size: z.string(),
  since: z.string(),
});
export type StockAlert = z.infer<typeof stockAlertSchema>;

/** Who is signed in, and whether they may open the back office. */
const userReply = z.object({ user: sessionUserSchema, role: z.enum(roles) });

/** The account's endpoints, in the order of the contract. */
export const accountEndpoints = {
  signUp: { method: 'POST', path: '/api/auth/signup', body: credentialsSchema, reply: userReply },
  logIn: { method: 'POST', path: '/api/auth/login', body: credentialsSchema, reply: userReply },
  logOut: { method: 'POST', path: '/api/auth/logout' },
  session: { method: 'GET', path: '/api/auth/session', reply: userReply },
  /**
   * A challenge for 'Log in with a passkey' and the browser's passkey autofill, valid for 5 minutes and once; it rides
   * in an HttpOnly cookie. Under /api/auth/login, so that the device cookie of a password log-in reaches it too.
   */
  passkeyLogInOptions: { method: 'POST', path: '/api/auth/login/passkey/options', reply: authenticationOptionsSchema },
  /** The browser's answer to that challenge; a new session, like a password log-in. */
  passkeyLogIn: { method: 'POST', path: '/api/auth/login/passkey', body: passkeyLogInSchema, reply: userReply },
  /** Answers 204 whether or not the address has an account. */
  requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', body: resetRequestSchema },
  checkResetLink: { method: 'POST', path: '/api/auth/password-reset/check', body: linkSchema },
  resetPassword: { method: 'POST', path: '/api/auth/password-reset/confirm', body: resetPasswordSchema },
  /** Opens the link that confirms an address: no session needed (the token is the proof); `email` is the address. */
  confirmEmail: {
    method: 'POST',
    path: '/api/auth/email-confirmation',
    body: linkSchema,
    reply: z.object({ email: z.string() }),
  },
  /** 'Send it again': a new link to the signed-in rider's address, throttled per account and per client address. */
  resendConfirmation: { method: 'POST', path: '/api/auth/email-confirmation/send' },
  changeEmail: { method: 'PUT', path: '/api/account/email', body: newEmailSchema },
  changePassword: { method: 'PUT', path: '/api/account/password', body: newPasswordSchema },
  deleteAccount: { method: 'DELETE', path: '/api/account' },
  /** Server-Sent Events: `accountEventSchemas`; for pages that follow no other stream. */
  accountStream: { method: 'GET', path: liveStreams.account.path },
  /** The rider's live sessions: this device first, then the most recently used. */
  accountSessions: {
    method: 'GET',
    path: '/api/account/sessions',
    reply: z.object({ sessions: z.array(accountSessionSchema) }),
  },
  /** Ends one of the rider's sessions, on every server; ending this device's is a log-out (the cookie is cleared). */
  endAccountSession: { method: 'DELETE', path: '/api/account/sessions/:id' },
  /** 'Log out of all other devices': ends every session of the rider but this one; `ended` says how many. */
  endOtherSessions: {
    method: 'POST',
    path: '/api/account/sessions/end-others',
    reply: z.object({ ended: z.number().int() }),
  },
  /** The rider's passkeys, oldest first. */
  passkeys: { method: 'GET', path: '/api/account/passkeys', reply: z.object({ passkeys: z.array(passkeySchema) }) },
  /** A challenge for adding a passkey (needs a recent log-in), valid for 5 minutes and once, in an HttpOnly cookie. */
  passkeyRegistrationOptions: {
    method: 'POST',
    path: '/api/account/passkeys/options',
    reply: registrationOptionsSchema,
  },
  /** The browser's new passkey, answering that challenge, and its name (needs a recent log-in). */
  addPasskey: {
    method: 'POST',
    path: '/api/account/passkeys',
    body: newPasskeySchema,
    reply: z.object({ passkey: passkeySchema }),
  },
  removePasskey: { method: 'DELETE', path: '/api/account/passkeys/:id' },
  /** The rider's back-in-stock alerts, oldest first. */
  stockAlerts: {
    method: 'GET',
    path: '/api/account/stock-alerts',
    reply: z.object({ alerts: z.array(stockAlertSchema) }),
  },
  /** 'Email me when it is back': 201 for a new alert, 200 with the same one when the rider already waits for the size. */
  addStockAlert: {
    method: 'POST',
    path: '/api/account/stock-alerts',
    body: stockAlertRequestSchema,
    reply: z.object({ alert: stockAlertSchema }),
  },
  cancelStockAlert: { method: 'DELETE', path: '/api/account/stock-alerts/:id' },
} as const satisfies Record<string, Endpoint>;
