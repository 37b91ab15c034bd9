import { passkey } from '@better-auth/passkey';
import { betterAuth } from 'better-auth';
import type { Kysely } from 'kysely';
import { brand } from '../../shared/brand';
import { limits } from '../../shared/limits';
import type { Config } from '../config';
import type { Dialect } from '../db/open';
import type { Tables } from '../db/schema';
import { isHttps } from '../http/security';
import { type Logger, withoutEmails } from '../log';
import { boundedPasswordHashing } from './password-hashing';

/**
 * The shape of the ids Better Auth gives its rows (sessions, passkeys): an id from a URL is checked against it before
 * it reaches the database, which would refuse some characters (a NUL on PostgreSQL) with an error of its own.
 */
export const rowIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Changing the e-mail or password and deleting the account need a log-in this recent (docs/product.md §4). */
export const recentLoginSeconds = 5 * 60;

/** Better Auth does sign-up, log-in, password hashing and sessions; our routes put our API in front of it. */
/**
 * Better Auth's own log lines, in our JSON log: its level, its message without e-mail addresses, and an
 * error it passes along (its other arguments may name a user, so they are left out).
 */
function betterAuthLog(log: Logger) {
  return (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) => {
    const err = args.find((arg) => arg instanceof Error);
    log[level]({ source: 'better-auth', ...(err ? { err } : {}) }, withoutEmails(String(message)));
  };
}

export function createAuth(db: Kysely<Tables>, dialect: Dialect, config: Config, log: Logger) {
  return betterAuth({
    database: { db, type: dialect },
    secret: config.authSecret,
    baseURL: config.publicUrl,
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      // The shared schema (src/shared/validation.ts) is the one password rule; it counts characters (code
      // points), Better Auth counts UTF-16 units, up to two per character. Its bounds are set so that it never
      // refuses what the schema allowed: otherwise a 9-emoji password, accepted by PUT /api/account/password,
      // would be refused at every later log-in and lock the user out.
      minPasswordLength: limits.passwordMin,
      maxPasswordLength: limits.passwordMax * 2,
      password: boundedPasswordHashing(config.passwordHashCost),
    },
    session: { freshAge: recentLoginSeconds, expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    user: { changeEmail: { enabled: true, updateEmailWithoutVerification: true } },
    // Log-in throttling lives in our database (src/server/auth/throttle.ts), shared by every server.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'piaffe',
      useSecureCookies: isHttps(config.publicUrl),
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
      // The schema is brought up to date at start, before any request (db/connect.ts); Better Auth's own check would
      // look at the database as it is made, before the migrations, and race a command line's closing of it.
      database: { validateSchema: false },
      // Better Auth would take a session's address from X-Forwarded-For whether or not a proxy wrote it, so anyone
      // could name their own; `sessions.started` writes our client address instead (TRUST_PROXY decides).
      ipAddress: { disableIpTracking: true },
    },
    // A passkey is bound to PUBLIC_URL's host name (never an IP address: WebAuthn refuses those) and answers only pages
    // of its origin (docs/decisions/0026-passkeys.md).
    plugins: [passkey({ rpID: new URL(config.publicUrl).hostname, rpName: brand.software, origin: config.publicUrl })],
    telemetry: { enabled: false },
    logger: {
      disabled: config.logLevel === 'silent',
      level: config.logLevel === 'silent' ? 'error' : config.logLevel,
      log: betterAuthLog(log),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
