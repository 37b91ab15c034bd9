import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Logger } from '../log';
import { createPrivateFile } from '../private-files';

/**
 * Who is using the shop's database (docs/decisions/0050-a-fill-alone.md): every server holds it shared for its whole
 * life, from before its migrations; `npm run demo-data` holds it alone for its whole run, its check that the shop is
 * new and its fill. Neither waits: whoever comes second is refused at once, and the holds are the database's own
 * locks, so a process that dies lets go of its hold with it.
 *
 * - PostgreSQL: a session advisory lock (`piaffe_in_use` and the schema's name, so that shops in other schemas of the
 *   database never meet), held by a connection of its own, shared by servers and taken alone by the fill.
 * - SQLite: a lock on a file beside the database, `<file>-in-use`, an empty SQLite database that no statement ever
 *   writes: a server keeps a read transaction open on it (SQLite's SHARED lock), the fill an exclusive one (its
 *   EXCLUSIVE lock). They are the operating system's locks on the file (fcntl), which every process on the machine
 *   sees and a process's end releases. The file stays: deleting a lock file while another process holds it would let
 *   a third lock a new file of that name.
 */

/** What a server is told when a fill has the database. */
export const fillingMessage = 'npm run demo-data is filling this database: start the shop once it has finished.';

/** What `npm run demo-data` is told when a server (or another fill) has it. */
export const inUseMessage =
  'A server, or another npm run demo-data, is using this database: stop the shop first. Demo data goes into a new shop that nothing else uses.';

/** The hold was refused: somebody else holds the database the other way. */
export class InUseError extends Error {}

export interface Hold {
  /** Lets go of the database. */
  release(): Promise<void>;
}

type Way = 'shared' | 'alone';

/**
 * A server's hold, shared with the other servers of the shop; `InUseError` while a fill has the database. On
 * PostgreSQL a hold whose connection is lost (the database restarted) is taken again, a second later and on.
 */
export async function holdAsServer(databaseUrl: string, log: Logger): Promise<Hold> {
  if (databaseUrl.startsWith('file:')) return holdSqliteFile(databaseUrl, 'shared', fillingMessage);
  let current: Hold | undefined;
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  const takeAgain = () => {
    if (released) return;
    retry = setTimeout(async () => {
      try {
        current = await holdPostgres(databaseUrl, 'shared', fillingMessage, lost);
        log.info('the database is held as in use again');
      } catch (error) {
        log.error(
          { err: error },
          'could not hold the database as in use again: npm run demo-data may run beside this server',
        );
        takeAgain();
      }
    }, 1_000);
  };
  const lost = (error: Error) => {
    log.warn({ err: error }, 'lost the connection that holds the database as in use; taking it again');
    takeAgain();
  };
  current = await holdPostgres(databaseUrl, 'shared', fillingMessage, lost);
  return {
    async release() {
      released = true;
      clearTimeout(retry);
      await current?.release();
    },
  };
}

/**
 * The fill's hold, alone: `InUseError` while a server or another fill holds the database. `lost` is told if the hold
 * goes before it is released (PostgreSQL's connection lost): a server could then start beside the fill.
 */
export function holdAlone(databaseUrl: string, lost: (error: Error) => void): Promise<Hold> {
  return databaseUrl.startsWith('file:')
    ? Promise.resolve(holdSqliteFile(databaseUrl, 'alone', inUseMessage))
    : holdPostgres(databaseUrl, 'alone', inUseMessage, lost);
}

/** The lock file of the SQLite database at `databaseUrl` (`file:<path>`). */
export function inUseFile(databaseUrl: string): string {
  return `${resolve(databaseUrl.slice('file:'.length))}-in-use`;
}

function holdSqliteFile(databaseUrl: string, way: Way, refused: string): Hold {
  const file = inUseFile(databaseUrl);
  try {
    createPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const lock = new SQLite(file);
  try {
    lock.pragma('busy_timeout = 0');
    if (way === 'alone') lock.exec('begin exclusive');
    else {
      // A deferred transaction takes its SHARED lock at its first read, and keeps it until it ends.
      lock.exec('begin');
      lock.prepare('select count(*) from sqlite_master').get();
    }
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new InUseError(refused);
    throw error;
  }
  // Closing the connection ends its transaction, and its lock with it.
  return {
    async release() {
      lock.close();
    },
  };
}

async function holdPostgres(
  databaseUrl: string,
  way: Way,
  refused: string,
  lost: (error: Error) => void,
): Promise<Hold> {
  const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
  let releasing = false;
  let told = false;
  const tell = (error: Error) => {
    if (releasing || told) return;
    told = true;
    lost(error);
  };
  client.on('error', tell);
  client.on('end', () => tell(new Error('the connection ended')));
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema');
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('PostgreSQL has no current schema: does the schema in search_path exist?');
    const take = way === 'alone' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    const taken = await client.query<{ held: boolean }>(
      `select ${take}(hashtext('piaffe_in_use'), hashtext($1)) as held`,
      [schema],
    );
    if (!taken.rows[0]?.held) throw new InUseError(refused);
  } catch (error) {
    releasing = true;
    await client.end().catch(() => {});
    throw error;
  }
  return {
    async release() {
      releasing = true;
      // The session's end lets go of its advisory locks.
      await client.end().catch(() => {});
    },
  };
}
