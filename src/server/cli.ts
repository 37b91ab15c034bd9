// What the shop's command lines share (owner-cli.ts, stock-cli.ts): the server's settings, its database brought up
// to date, one line on stderr for whatever goes wrong, and the answer on stdout.
import { createAuth } from './auth/auth';
import { ConfigError, loadConfig } from './config';
import { migrateDatabase, openDatabase } from './db/connect';
import { createDb, type Db } from './db/database';
import { createLogger } from './log';

/** Says why in one line and ends the command: status 1 for a refusal, 2 for a command used wrongly. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * Runs `work` on the database DATABASE_URL names (the same settings as the server, migrated as the server would),
 * prints what it answers, and closes the database.
 */
export async function runOnShopDatabase(work: (db: Db) => Promise<string>): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`piaffe: ${error.message}`);
    throw error;
  }
  // Only what goes wrong is worth a line here; the answer is the command's output.
  const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'warn');
  const output = await (async () => {
    const opened = openDatabase(config.databaseUrl, log);
    const auth = createAuth(opened.db, opened.dialect, config, log);
    await migrateDatabase(opened, auth);
    const db = await createDb(opened, log);
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  })().catch((error: Error) =>
    fail(`piaffe: ${error.message || error.name}${error.cause ? ` (${String(error.cause)})` : ''}`),
  );
  process.stdout.write(`${output}\n`);
}
