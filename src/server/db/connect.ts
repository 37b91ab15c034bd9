import { getMigrations } from 'better-auth/db/migration';
import { sql } from 'kysely';
import type { Auth } from '../auth/auth';
import type { Logger } from '../log';
import { migrate } from './migrations';
import { type OpenDatabase, openPostgres, openSqlite } from './open';
import { schemasLock } from './schemas-lock';

/** Opens the database a (checked) `DATABASE_URL` names: `file:` for SQLite, otherwise PostgreSQL. */
export function openDatabase(databaseUrl: string, log: Logger): OpenDatabase {
  return databaseUrl.startsWith('file:') ? openSqlite(databaseUrl) : openPostgres(databaseUrl, log);
}

/** Brings the schema up to date: Better Auth's tables first (ours refer to its user table), then ours. */
export async function migrateDatabase(opened: OpenDatabase, auth: Auth): Promise<void> {
  const run = async (schema?: string) => {
    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();
    await migrate(opened.db, opened.dialect, schema);
  };
  if (opened.dialect === 'sqlite') return run();
  await withMigrationLock(opened, run);
}

/**
 * Better Auth's migrations take no lock, so on PostgreSQL the whole step runs under a session advisory
 * lock held by one dedicated connection: servers starting together migrate one after another, and the
 * later ones find nothing left to do. The lock is per schema, so shops (or test runs) in other schemas
 * of the same database do not wait for each other; each also holds the database's `schemasLock` shared, so that no
 * schema is dropped while the introspection reads them all.
 */
async function withMigrationLock(opened: OpenDatabase, work: (schema: string) => Promise<void>): Promise<void> {
  await opened.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(connection);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('PostgreSQL has no current schema: does the schema in search_path exist?');
    await sql`select pg_advisory_lock_shared(hashtext(${schemasLock}))`.execute(connection);
    try {
      await sql`select pg_advisory_lock(hashtext('piaffe_migrate'), hashtext(${schema}))`.execute(connection);
      try {
        await work(schema);
      } finally {
        await sql`select pg_advisory_unlock(hashtext('piaffe_migrate'), hashtext(${schema}))`.execute(connection);
      }
    } finally {
      await sql`select pg_advisory_unlock_shared(hashtext(${schemasLock}))`.execute(connection);
    }
  });
}
