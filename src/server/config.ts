import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** `file:PATH` for SQLite, `postgres://...` for PostgreSQL. */
  databaseUrl: string;
  /** The origin people reach the shop at; sets secure cookies when https. */
  publicUrl: string;
  authSecret: string;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** Where the built client lives. */
  distDir: string;
}

const defaultDatabaseUrl = 'file:./data/shop.db';

/** Reads configuration from the environment; see "Configuration" in README.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const databaseUrl = env.DATABASE_URL || defaultDatabaseUrl;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    authSecret: env.AUTH_SECRET || localSecret(databaseUrl),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    distDir: resolve(env.DIST_DIR ?? 'dist'),
  };
}

/**
 * With no AUTH_SECRET, a SQLite shop keeps a generated secret next to its database file, so that
 * `npm start` needs no set-up and sessions survive restarts. PostgreSQL deployments run several
 * servers that must share one secret, so there it is required.
 */
function localSecret(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) throw new Error('AUTH_SECRET must be set when DATABASE_URL is not a file.');
  const file = resolve(dirname(databaseUrl.slice('file:'.length)), 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
