import type { BetterAuthOptions } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { sql } from 'kysely';
import type { Logger } from '../log';
import { migrate } from './migrations';
import { type OpenDatabase, openPostgres, openSqlite } from './open';

/** Opens the database a (checked) `DATABASE_URL` names: `file:` for SQLite, otherwise PostgreSQL. */
export function openDatabase(databaseUrl: string, log: Logger): OpenDatabase {
  return databaseUrl.startsWith('file:') ? openSqlite(databaseUrl) : openPostgres(databaseUrl, log);
}

/**
 * Brings the schema up to date: Better Auth's tables first (ours refer to its user table), then ours. `auth` is the
 * shop's Better Auth (src/server/auth), of which only its options are read: the database knows no feature
 * (docs/decisions/0057-boundaries-that-hold.md).
 */
export async function migrateDatabase(opened: OpenDatabase, auth: { options: BetterAuthOptions }): Promise<void> {
  const run = async (schema?: string) => {
    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();
    await migrate(opened.db, opened.dialect, schema);
  };
  if (opened.dialect === 'sqlite') return run();
  await withMigrationLock(opened, async (schema) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(schema);
      } catch (error) {
        if (attempt === introspectionAttempts || !metAnotherSchemasChange(error)) throw error;
        // Another schema's change may be one of many (a test's migrations, one table at a time): wait it out.
        await new Promise((resolve) => setTimeout(resolve, introspectionBackOffMs * attempt));
      }
    }
  });
}

/**
 * How many times the step is tried when its introspection meets another schema's change (below), and the wait before
 * each try again (times the tries so far): 4.5 s in all at most. Five tries at once were not enough in a rehearsal of
 * CI on 2026-11-28: a crash test's server, started while other test files changed their schemas (a restore drops and
 * makes tables one by one), failed with 'relation "<another schema>.picture" does not exist'.
 */
const introspectionAttempts = 10;
const introspectionBackOffMs = 100;

/**
 * Whether the step failed as Kysely's and Better Auth's introspection does when another schema of the database changes
 * under it: each reads the columns of every schema's tables (not only ours), resolving each table by its name as it
 * goes, so a table dropped or renamed meanwhile (another shop's migration, a schema dropped: the tests do both while
 * other tests' servers start) fails the read with 'relation …', 'column …' or 'schema … does not exist'. The step
 * is safe to run again: our migrations run in one transaction, Better Auth's make only what is missing.
 */
function metAnotherSchemasChange(error: unknown): boolean {
  // Our migrations' failure carries PostgreSQL's as its cause.
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return code === '42P01' || code === '42703' || code === '3F000';
}

/**
 * Better Auth's migrations take no lock, so on PostgreSQL the whole step runs under a session advisory
 * lock held by one dedicated connection: servers starting together migrate one after another, and the
 * later ones find nothing left to do. The lock is per schema, so shops (or test runs) in other schemas
 * of the same database do not wait for each other.
 */
async function withMigrationLock(opened: OpenDatabase, work: (schema: string) => Promise<void>): Promise<void> {
  await opened.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(connection);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('PostgreSQL has no current schema: does the schema in search_path exist?');
    await sql`select pg_advisory_lock(hashtext('piaffe_migrate'), hashtext(${schema}))`.execute(connection);
    try {
      await work(schema);
    } finally {
      await sql`select pg_advisory_unlock(hashtext('piaffe_migrate'), hashtext(${schema}))`.execute(connection);
    }
  });
}
