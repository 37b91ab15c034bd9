import { getMigrations } from 'better-auth/db/migration';
import type { Auth } from '../auth/auth';
import { migrate } from './migrations';
import { type OpenDatabase, openSqlite } from './open';
import { createSqlStore } from './sql-store';
import { sqliteHooks } from './sqlite-hooks';
import type { Store } from './store';

/** Opens the database a `DATABASE_URL` names. */
export function openDatabase(databaseUrl: string): OpenDatabase {
  if (databaseUrl.startsWith('file:')) return openSqlite(databaseUrl);
  throw new Error(`DATABASE_URL must start with file: (got ${databaseUrl.split(':')[0]}:)`);
}

/** Brings the schema up to date: Better Auth's tables first (ours refer to its user table), then ours. */
export async function migrateDatabase(opened: OpenDatabase, auth: Auth): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await migrate(opened.db);
}

export function createStore(opened: OpenDatabase): Store {
  return createSqlStore(opened.db, sqliteHooks());
}
