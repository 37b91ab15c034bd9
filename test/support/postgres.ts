import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Everything the tests know about PostgreSQL: where it is, whether it can be reached, and a throwaway
 * schema per run so that parallel runs and leftovers never collide.
 */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Set by vitest.config.ts on the PostgreSQL projects when the database could not be reached. */
export const unavailableEnv = 'PIAFFE_POSTGRES_UNAVAILABLE';

export type Reachability = { ok: true } | { ok: false; reason: string };

/** One quick connection attempt; never throws. */
export async function checkPostgres(url = testDatabaseUrl, timeoutMs = 3000): Promise<Reachability> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message || error.name : String(error);
    const code = (error as { code?: string })?.code;
    return { ok: false, reason: `${redact(url)} cannot be reached: ${code ? `${code} ` : ''}${message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable TEST_DATABASE_URL)';
  }
}

/**
 * What the PostgreSQL projects should run, decided once in vitest.config.ts: their own files when the
 * database is there; otherwise a placeholder that is reported as skipped (or, with CI=true, fails),
 * with the reason, and a warning on the console.
 */
export async function postgresProjectFiles(
  include: string[],
): Promise<{ include: string[]; env: Record<string, string> }> {
  const reachable = await checkPostgres();
  if (reachable.ok) return { include, env: {} };
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const banner = '!'.repeat(100);
  console.warn(
    `\n${banner}\n!! The PostgreSQL tests did NOT run: ${reachable.reason}\n` +
      `!! Start PostgreSQL or set TEST_DATABASE_URL.${ci ? ' CI=true, so this is a failure.' : ''}\n${banner}\n`,
  );
  return { include: ['test/support/postgres-unavailable.test.ts'], env: { [unavailableEnv]: reachable.reason } };
}

export interface TestSchema {
  /** The schema's name, `piaffe_test_<unix seconds>_<random>`. */
  schema: string;
  /** A URL on the schema; `name` becomes the connections' application_name, to tell servers apart. */
  url(name?: string): string;
  /** Runs SQL on the schema (the tests' own pool, not the server's). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

const schemaPrefix = 'piaffe_test_';
/** Schemas left by runs that crashed are dropped by a later run once they are this old. */
const leftoverAgeSeconds = 6 * 60 * 60;

/** A URL whose connections use `schema` (for Kysely and Better Auth alike) and name themselves `name`. */
export function urlOnSchema(baseUrl: string, schema: string, name: string): string {
  const separator = baseUrl.includes('?') ? '&' : '?';
  return `${baseUrl}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}&application_name=${encodeURIComponent(name)}`;
}

/** Creates a fresh, empty schema in TEST_DATABASE_URL. */
export async function createTestSchema(): Promise<TestSchema> {
  const schema = `${schemaPrefix}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  admin.on('error', () => {});
  await admin.connect();
  try {
    await dropLeftovers(admin);
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: urlOnSchema(testDatabaseUrl, schema, `${schema}_test`), max: 2 });
  pool.on('error', () => {});
  return {
    schema,
    url: (name = 'server') => urlOnSchema(testDatabaseUrl, schema, `${schema}_${name}`),
    query: (text, values) => pool.query(text, values),
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

async function dropLeftovers(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ nspname: string }>(
    `select nspname from pg_namespace where nspname like '${schemaPrefix}%'`,
  );
  const now = Date.now() / 1000;
  for (const { nspname } of rows) {
    const created = Number(nspname.slice(schemaPrefix.length).split('_')[0]);
    if (Number.isFinite(created) && now - created > leftoverAgeSeconds) {
      await admin.query(`drop schema if exists ${nspname} cascade`).catch(() => {});
    }
  }
}
