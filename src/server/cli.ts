// What the shop's command lines share (owner-cli.ts, stock-cli.ts, backup-cli.ts): the server's settings, its
// database brought up to date, one line on stderr for whatever goes wrong, and the answer on stdout.

import { publicShopOf } from '../shared/settings';
import { type Auth, createAuth } from './auth/auth';
import { type Config, ConfigError, loadConfig } from './config';
import { migrateDatabase, openDatabase } from './db/connect';
import { createDb, type Db } from './db/database';
import { type Hold, holdAlone, InUseError } from './db/in-use';
import { createLogger, type Logger } from './log';
import { createOutbox, type Outbox } from './mail/outbox';
import { createSeal } from './mail/seal';
import { createSettingsStore } from './settings/settings-store';

/** Says why in one line and ends the command: status 1 for a refusal, 2 for a command used wrongly. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** The server's settings from the environment; a bad one ends the command with its one line. */
export function shopConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`piaffe: ${error.message}`);
    throw error;
  }
}

/** Prints the command's answer, or ends it with the one line of what went wrong. */
export async function answer(output: Promise<string>): Promise<void> {
  const text = await output.catch((error: Error) =>
    fail(`piaffe: ${error.message || error.name}${error.cause ? ` (${String(error.cause)})` : ''}`),
  );
  process.stdout.write(`${text}\n`);
}

/** What a command line's work is given besides the database: the server's settings, Better Auth on them, the log. */
export interface ShopParts {
  config: Config;
  auth: Auth;
  log: Logger;
}

/**
 * Runs `work` on the database DATABASE_URL names (the same settings as the server, migrated as the server would),
 * prints what it answers, and closes the database. `alone`: the database is held alone from before the migrations to
 * the end (docs/decisions/0050-a-fill-alone.md), and a database a server (or another such command) uses is refused
 * with one line, status 1.
 */
export async function runOnShopDatabase(
  work: (db: Db, parts: ShopParts) => Promise<string>,
  { alone = false }: { alone?: boolean } = {},
): Promise<void> {
  const config = shopConfig();
  // Only what goes wrong is worth a line here; the answer is the command's output.
  const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'warn');
  await answer(
    (async () => {
      const opened = openDatabase(config.databaseUrl, log);
      let hold: Hold | undefined;
      try {
        hold = alone ? await holdAlone(config.databaseUrl, lostHold) : undefined;
      } catch (error) {
        await opened.db.destroy();
        if (error instanceof InUseError) fail(error.message);
        throw error;
      }
      try {
        const auth = createAuth(opened.db, opened.dialect, config, log);
        await migrateDatabase(opened, auth);
        const db = await createDb(opened, log);
        try {
          return await work(db, { config, auth, log });
        } finally {
          await db.close();
        }
      } finally {
        await hold?.release();
      }
    })(),
  );
}

/** A command holding the database alone that loses its hold (the connection that held it ended) stops at once. */
function lostHold(error: Error): never {
  fail(
    `piaffe: lost the hold on the database (${error.message}): a server could start beside this command, so it stops.`,
  );
}

/**
 * The shop's outbox as the server writes to it (its PUBLIC_URL, its AUTH_SECRET's seal): an e-mail a command causes
 * (a restock's, docs/decisions/0058-back-in-stock.md) waits there for a server's sender.
 */
export function shopOutbox(db: Db, config: Config): Outbox {
  const settings = createSettingsStore(db);
  const shop = async (uow: Parameters<typeof settings.current>[0]) => publicShopOf(await settings.current(uow));
  return createOutbox(db, { publicUrl: config.publicUrl, shop }, createSeal(config.authSecret));
}
