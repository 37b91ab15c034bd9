// `npm run backup -- FILE` and `npm run restore -- FILE [--force]`: a consistent copy of the shop's SQLite
// database while the shop runs, and putting one back while it is stopped (docs/OPERATIONS.md,
// docs/decisions/0021-backups-through-the-online-backup-api.md). Settings as the server's (DATABASE_URL).
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { answer, fail, shopConfig } from './cli';
import { migrationNames, migrationTable } from './db/migrations';

const usage = 'Usage: npm run backup -- FILE | npm run restore -- FILE [--force]';
/** Pages copied per step of the online backup; a database of more pages reports its progress. */
const pagesPerStep = 10_000;

/** The shop's database file, from the server's own settings; PostgreSQL has its own tools. */
function shopFile(): string {
  const { databaseUrl } = shopConfig();
  if (!databaseUrl.startsWith('file:')) {
    fail('The shop runs on PostgreSQL: back it up with pg_dump and pg_restore (docs/OPERATIONS.md).');
  }
  return resolve(databaseUrl.slice('file:'.length));
}

/** What a shop's database holds, for the line that ends each command. */
function contents(database: SQLite.Database): string {
  const count = (table: string) => (database.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
  return `${count('user')} riders, ${count('shop_order')} orders, ${count('outbox')} e-mails`;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/**
 * Opens `file` read-only as a Piaffe database this version can run, or says in one line why it is not one: not
 * SQLite, not Piaffe's, or from a newer Piaffe (a migration this one does not know).
 */
function openPiaffeDatabase(file: string): SQLite.Database {
  if (!existsSync(file)) fail(`${file} does not exist.`);
  let database: SQLite.Database;
  try {
    database = new SQLite(file, { readonly: true, fileMustExist: true });
    database.pragma('schema_version');
  } catch {
    fail(`${file} is not a SQLite database.`);
  }
  const recorded = database
    .prepare("select 1 from sqlite_master where type = 'table' and name = ?")
    .get(migrationTable);
  if (!recorded) fail(`${file} is not a Piaffe database.`);
  const applied = database.prepare(`select name from "${migrationTable}" order by name`).all() as { name: string }[];
  const unknown = applied.find(({ name }) => !migrationNames.includes(name));
  if (unknown) fail(`${file} comes from a newer version of Piaffe (migration ${unknown.name}): upgrade Piaffe first.`);
  return database;
}

/**
 * Whether a program has the database open: a connection that asks for the file in exclusive locking mode is
 * refused while any other holds it open in WAL mode, even idle (as the shop does while it runs).
 */
function inUse(file: string): boolean {
  const database = new SQLite(file, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 0');
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('begin exclusive');
    database.exec('commit');
    return false;
  } catch {
    return true;
  } finally {
    database.close();
  }
}

async function backup(target: string): Promise<string> {
  const source = shopFile();
  const started = Date.now();
  if (existsSync(target)) fail(`${target} exists already: name a new file, so that no backup is overwritten.`);
  const database = openPiaffeDatabase(source);
  try {
    // SQLite's online backup: page by page, from a read snapshot; the shop goes on writing meanwhile (WAL).
    await database.backup(target, {
      progress({ totalPages, remainingPages }) {
        if (totalPages > pagesPerStep && remainingPages > 0) {
          const done = Math.round((100 * (totalPages - remainingPages)) / totalPages);
          process.stderr.write(`Backing up: ${done}% of ${totalPages} pages\n`);
        }
        return pagesPerStep;
      },
    });
  } finally {
    database.close();
  }
  const copy = new SQLite(target, { readonly: true });
  try {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `Backed up ${source} to ${target}: ${megabytes(statSync(target).size)} in ${seconds} s (${contents(copy)}).`;
  } finally {
    copy.close();
  }
}

async function restore(file: string, force: boolean): Promise<string> {
  const target = shopFile();
  const backupFile = openPiaffeDatabase(resolve(file));
  try {
    let kept = '';
    if (existsSync(target)) {
      if (inUse(target)) fail(`The shop is running on ${target}: stop it first, then restore.`);
      if (!force) fail(`${target} exists: add --force to replace it (the old file is then kept beside it).`);
      const aside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      // With its WAL and shared-memory files, if a crash left any: beside a new database they would corrupt it.
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(target + suffix)) renameSync(target + suffix, aside + suffix);
      }
      kept = ` The old database is kept as ${aside}.`;
    }
    mkdirSync(dirname(target), { recursive: true });
    await backupFile.backup(target);
    return `Restored ${resolve(file)} to ${target} (${contents(backupFile)}).${kept} Start the shop: npm start.`;
  } finally {
    backupFile.close();
  }
}

async function run(args: string[]): Promise<string> {
  const [command, file, ...rest] = args;
  const force = rest.length === 1 && rest[0] === '--force' && command === 'restore';
  if (!file || (rest.length > 0 && !force) || !(command === 'backup' || command === 'restore')) fail(usage, 2);
  return command === 'backup' ? backup(resolve(file)) : restore(file, force);
}

await answer(run(process.argv.slice(2)));
