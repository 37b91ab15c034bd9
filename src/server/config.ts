import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { brand } from '../shared/brand';
import { defaultPasswordHashCost, leastPasswordHashCost, mostPasswordHashCost } from './auth/password-hashing';
import { type LogLevel, logLevels } from './log';
import { isLoopbackHost } from './mail/local-mailbox';
import { makePrivateFolder } from './private-files';

export interface Config {
  port: number;
  host: string;
  /** `file:PATH` for SQLite, `postgres://...` for PostgreSQL. */
  databaseUrl: string;
  /** The origin people reach the shop at (links, cookies: secure when https). */
  publicUrl: string;
  /** Whether PUBLIC_URL was set; when not, `publicUrl` is a local default and requests may come from any of the server's own origins. */
  publicUrlIsSet: boolean;
  authSecret: string;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  logLevel: LogLevel;
  /** Live cart streams this server keeps open at most. */
  maxLiveStreams: number;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; without it there are no metrics. */
  metricsToken: string | undefined;
  /** Where the built client lives. */
  distDir: string;
  mail: MailConfig;
  /** Card payments through Stripe (docs/product.md §14): offered only when the keys are set. */
  stripe: StripeConfig | undefined;
  /** CARD_PAYMENT_MINUTES: how long a card order waits for its payment before the shop cancels it. */
  cardPaymentMs: number;
  /** EXPORT_BATCH_ORDERS: how many orders the CSV export reads from the database at a time. */
  exportBatchOrders: number;
  /** PASSWORD_HASH_COST: scrypt's N for passwords; below the default only in a test (docs/decisions/0056). */
  passwordHashCost: number;
}

export interface StripeConfig {
  /** STRIPE_SECRET_KEY: `sk_live_...` or `sk_test_...`. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: `whsec_...`, the signing secret of the shop's webhook endpoint at Stripe. */
  webhookSecret: string;
  /** STRIPE_API_URL: where the library sends its requests instead of Stripe's (a local fake, stripe-mock). */
  apiUrl: URL | undefined;
}

export interface MailConfig {
  /**
   * SMTP_URL; without it e-mails go to the local mailbox when PUBLIC_URL is on this machine (`localMailbox`), and
   * otherwise wait in the outbox.
   */
  smtpUrl: string | undefined;
  /** No SMTP_URL, and PUBLIC_URL on this machine: e-mails are kept in a local mailbox (mail/local-mailbox.ts). */
  localMailbox: boolean;
  /** MAIL_FROM: the sender of every e-mail. */
  from: string;
  /** MAIL_RETRY_DELAYS: the pause before each retry of a failed e-mail; after the last, it is marked failed. */
  retryDelaysMs: number[];
}

/** A setting that cannot work; its message names the variable and says what is wrong, in one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const defaultDatabaseUrl = 'file:./data/shop.db';
const minSecretLength = 32;

function port(value: string | undefined): number {
  const parsed = Number(value ?? 3000);
  if (value?.trim() === '' || !Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new ConfigError(`PORT must be a port number from 0 to 65535, not "${value}".`);
  }
  return parsed;
}

function databaseUrl(value: string | undefined): string {
  const url = value || defaultDatabaseUrl;
  if (url.startsWith('file:')) {
    if (url === 'file:') throw new ConfigError('DATABASE_URL "file:" names no file; write file:PATH.');
    return url;
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(
      `DATABASE_URL must start with file:, postgres:// or postgresql:// (it starts with "${url.split(':')[0]}:").`,
    );
  }
  try {
    new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid postgres:// URL.');
  }
  return url;
}

function publicUrl(value: string | undefined, port: number): string {
  if (value === undefined) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be a URL such as https://shop.example.com, not "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PUBLIC_URL must start with http:// or https://, not "${url.protocol}//".`);
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError('PUBLIC_URL must be an origin only (scheme, host and port), with no path.');
  }
  return url.origin;
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new ConfigError(`${name} must be a whole number above 0, not "${value}".`);
  return parsed;
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1 (or true) or 0 (or false), not "${value}".`);
}

function smtpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:pass@mail.example.com:587.');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps:// (TLS), not "${url.protocol}//".`);
  }
  if (!url.hostname) throw new ConfigError('SMTP_URL names no host.');
  return value;
}

/** An address, optionally with a display name: `shop@example.com` or `Piaffe <shop@example.com>`. */
const mailbox = /^(?:[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function mailFrom(value: string | undefined, publicUrl: string): string {
  if (value === undefined || value === '') return `${brand.software} <shop@${new URL(publicUrl).hostname}>`;
  if (!mailbox.test(value.trim())) {
    throw new ConfigError(
      `MAIL_FROM must be an address such as shop@example.com or "Shop <shop@example.com>", not ${JSON.stringify(value)}.`,
    );
  }
  return value.trim();
}

const defaultRetryDelaysSeconds = [30, 120, 600, 3600, 21_600];

function retryDelays(value: string | undefined): number[] {
  if (value === undefined || value === '') return defaultRetryDelaysSeconds.map((s) => s * 1000);
  const seconds = value.split(',').map((part) => Number(part.trim()));
  if (seconds.length > 20 || seconds.some((s) => !Number.isFinite(s) || s <= 0 || s > 7 * 86_400)) {
    throw new ConfigError(
      `MAIL_RETRY_DELAYS must be up to 20 pauses in seconds, separated by commas (such as 30,120,600), not "${value}".`,
    );
  }
  return seconds.map((s) => Math.round(s * 1000));
}

const minMetricsTokenLength = 16;

function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < minMetricsTokenLength || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${minMetricsTokenLength} printable characters without spaces (such as the output of openssl rand -hex 32).`,
    );
  }
  return value;
}

function stripeConfig(env: NodeJS.ProcessEnv): StripeConfig | undefined {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl } = env;
  if (!secretKey) {
    if (webhookSecret) throw new ConfigError('STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set both.');
    return undefined;
  }
  const prefix = /^sk_(live|test)_/.exec(secretKey)?.[0];
  if (!prefix) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY must be a secret key starting with sk_live_ or sk_test_ (not pk_ nor rk_).',
    );
  }
  // What is wrong after the prefix, by its place and never by the key itself (a secret, shown in the log).
  const rest = secretKey.slice(prefix.length);
  if (rest === '')
    throw new ConfigError(`STRIPE_SECRET_KEY is only the prefix ${prefix}: copy the whole key from Stripe.`);
  const odd = /[^A-Za-z0-9]/.exec(rest);
  if (odd) {
    throw new ConfigError(
      `STRIPE_SECRET_KEY must be ${prefix} followed by letters and digits only, but character ${prefix.length + odd.index + 1} is ${JSON.stringify(odd[0])}: copy the key again from Stripe.`,
    );
  }
  if (!webhookSecret) {
    throw new ConfigError(
      "STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: it is the signing secret (whsec_...) of the shop's webhook endpoint at Stripe.",
    );
  }
  if (!/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret)) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be the signing secret Stripe shows, starting with whsec_.');
  }
  const url = stripeApiUrl(apiUrl);
  if (url && secretKey.startsWith('sk_live_')) {
    throw new ConfigError(
      'STRIPE_API_URL is set with a live key (sk_live_): a live key goes to Stripe only; use sk_test_.',
    );
  }
  return { secretKey, webhookSecret, apiUrl: url };
}

function stripeApiUrl(value: string | undefined): URL | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`STRIPE_API_URL must be a URL such as http://127.0.0.1:12111, not "${value}".`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError('STRIPE_API_URL must be an http:// or https:// origin only (scheme, host and port).');
  }
  return url;
}

/** Stripe lets a Checkout Session live at most 24 hours. */
const maxCardPaymentMinutes = 24 * 60;

function cardPaymentMs(value: string | undefined): number {
  if (value === undefined || value === '') return 60 * 60_000;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > maxCardPaymentMinutes) {
    throw new ConfigError(
      `CARD_PAYMENT_MINUTES must be a number of minutes above 0 and at most ${maxCardPaymentMinutes}, not "${value}".`,
    );
  }
  return Math.round(minutes * 60_000);
}

function logLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  if ((logLevels as readonly string[]).includes(value)) return value as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, not "${value}".`);
}

/**
 * With no AUTH_SECRET, a SQLite shop keeps a generated secret next to its database file, so that
 * `npm start` needs no set-up and sessions survive restarts. PostgreSQL deployments run several
 * servers that must share one secret, so there it is required.
 */
function authSecret(value: string | undefined, databaseUrl: string): string {
  if (value) {
    if (value.length < minSecretLength) {
      throw new ConfigError(`AUTH_SECRET must be at least ${minSecretLength} characters long.`);
    }
    return value;
  }
  if (!databaseUrl.startsWith('file:')) {
    throw new ConfigError(
      'AUTH_SECRET must be set when DATABASE_URL is a PostgreSQL database (the same secret on every server).',
    );
  }
  const file = resolve(dirname(databaseUrl.slice('file:'.length)), 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  makePrivateFolder(dirname(file));
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * PASSWORD_HASH_COST: scrypt's N, a power of two. Below the default (Better Auth's 16384) it is refused unless the start
 * is explicitly a test's: PIAFFE_TEST=1 and a PUBLIC_URL on this machine (or none), so that a shop people reach never
 * stores weak hashes, whatever else its environment says (docs/decisions/0056-password-hashing-cost-in-tests.md).
 */
function passwordHashCost(value: string | undefined, env: NodeJS.ProcessEnv, origin: string): number {
  if (value === undefined || value === '') return defaultPasswordHashCost;
  const cost = Number(value);
  if (!Number.isInteger(cost) || cost < leastPasswordHashCost || cost > mostPasswordHashCost || cost & (cost - 1)) {
    throw new ConfigError(
      `PASSWORD_HASH_COST must be a power of two from ${leastPasswordHashCost} to ${mostPasswordHashCost} (the default is ${defaultPasswordHashCost}), not "${value}".`,
    );
  }
  if (cost < defaultPasswordHashCost && (env.PIAFFE_TEST !== '1' || !isLoopbackHost(new URL(origin).hostname))) {
    throw new ConfigError(
      `PASSWORD_HASH_COST ${cost} is weaker than the default ${defaultPasswordHashCost}: only a test may set that (PIAFFE_TEST=1, PUBLIC_URL on this machine). Leave it unset.`,
    );
  }
  return cost;
}

/** Reads configuration from the environment; see "Configuration" in README.md. Throws ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const listenPort = port(env.PORT);
  const database = databaseUrl(env.DATABASE_URL);
  const host = env.HOST ?? '0.0.0.0';
  if (host.trim() === '') throw new ConfigError('HOST must be an address to listen on, such as 0.0.0.0.');
  const origin = publicUrl(env.PUBLIC_URL, listenPort);
  const smtp = smtpUrl(env.SMTP_URL);
  return {
    port: listenPort,
    host,
    databaseUrl: database,
    publicUrl: origin,
    publicUrlIsSet: env.PUBLIC_URL !== undefined,
    authSecret: authSecret(env.AUTH_SECRET, database),
    trustProxy: flag('TRUST_PROXY', env.TRUST_PROXY),
    logLevel: logLevel(env.LOG_LEVEL),
    maxLiveStreams: count('MAX_LIVE_STREAMS', env.MAX_LIVE_STREAMS, 10_000),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    mail: {
      smtpUrl: smtp,
      localMailbox: smtp === undefined && isLoopbackHost(new URL(origin).hostname),
      from: mailFrom(env.MAIL_FROM, origin),
      retryDelaysMs: retryDelays(env.MAIL_RETRY_DELAYS),
    },
    stripe: stripeConfig(env),
    cardPaymentMs: cardPaymentMs(env.CARD_PAYMENT_MINUTES),
    exportBatchOrders: count('EXPORT_BATCH_ORDERS', env.EXPORT_BATCH_ORDERS, 100),
    passwordHashCost: passwordHashCost(env.PASSWORD_HASH_COST, env, origin),
  };
}
