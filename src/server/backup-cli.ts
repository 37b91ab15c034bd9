// `npm run backup -- FILE` and `npm run restore -- FILE [--force]`: a consistent copy of the shop's SQLite
// database while the shop runs, and putting one back while it is stopped (docs/OPERATIONS.md,
// docs/decisions/0021-backups-through-the-online-backup-api.md). Settings as the server's (DATABASE_URL).
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdtempSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { createAuth } from './auth/auth';
import { answer, fail, shopConfig } from './cli';
import type { Config } from './config';
import { migrateDatabase } from './db/connect';
import { migrationNames, migrationTable } from './db/migrations';
import { openSqlite } from './db/open';
import { createLogger } from './log';
import { createPrivateFile, makePrivateFolder } from './private-files';

const usage = 'Usage: npm run backup -- FILE | npm run restore -- FILE [--force]';
/** Pages copied per step of the online backup; a database of more pages reports its progress. */
const pagesPerStep = 10_000;
/** The files SQLite may keep beside a database: a copy's are removed with it. */
const companions = ['-journal', '-wal', '-shm'];

/** The shop's database file, from the server's own settings; PostgreSQL has its own tools. */
function shopFile(config: Config): string {
  if (!config.databaseUrl.startsWith('file:')) {
    fail('The shop runs on PostgreSQL: back it up with pg_dump and pg_restore (docs/OPERATIONS.md).');
  }
  return resolve(config.databaseUrl.slice('file:'.length));
}

/** A connection to read with: better-sqlite3's own, or the shop's (db/open.ts). */
type Prepares = { prepare(sql: string): SQLite.Statement };

/** What a shop's database holds, for the line that ends each command. */
function contents(database: Prepares): string {
  const count = (table: string) => (database.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
  return `${count('user')} riders, ${count('shop_order')} orders, ${count('outbox')} e-mails`;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** What is at `path` itself, a symbolic link not followed; undefined when nothing is. */
function entryAt(path: string): Stats | undefined {
  return lstatSync(path, { throwIfNoEntry: false });
}

/** A new name beside `file` for a copy in the making, so that the finished copy takes its place in one rename. */
const besides = (file: string, purpose: string) => `${file}.${purpose}-${randomBytes(6).toString('hex')}`;

function removeCopy(file: string): void {
  for (const suffix of ['', ...companions]) rmSync(file + suffix, { force: true });
}

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
  // Piaffe applies its migrations in order, so an older version's are the first few; any other set was not made by it.
  const skipped = migrationNames.slice(0, applied.length).find((name, i) => applied[i]?.name !== name);
  if (skipped) fail(`${file} is not a Piaffe database: it lacks migration ${skipped} but has later ones.`);
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
  const source = shopFile(shopConfig());
  const started = Date.now();
  const existing = entryAt(target);
  if (existing?.isSymbolicLink()) {
    fail(`${target} is a symbolic link: name a new file, so that no backup is written where a link leads.`);
  }
  if (existing) fail(`${target} exists already: name a new file, so that no backup is overwritten.`);
  if (!existsSync(dirname(target))) fail(`${dirname(target)} does not exist: make the folder first.`);
  const database = openPiaffeDatabase(source);
  // Written under a name of its own, private from its first byte, and given the target's name only when whole.
  const partial = besides(target, 'partial');
  try {
    createPrivateFile(partial);
    // SQLite's online backup: page by page, from a read snapshot; the shop goes on writing meanwhile (WAL).
    await database.backup(partial, {
      progress({ totalPages, remainingPages }) {
        if (totalPages > pagesPerStep && remainingPages > 0) {
          const done = Math.round((100 * (totalPages - remainingPages)) / totalPages);
          process.stderr.write(`Backing up: ${done}% of ${totalPages} pages\n`);
        }
        return pagesPerStep;
      },
    });
    // Read before it takes its name: a read-only connection leaves its WAL and shared-memory files behind, and
    // those of the partial copy are removed with it.
    const copy = new SQLite(partial, { readonly: true });
    let holds: string;
    try {
      holds = contents(copy);
    } finally {
      copy.close();
    }
    // A link, unlike a rename, fails if anything took the name meanwhile: no file is ever overwritten.
    linkSync(partial, target);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `Backed up ${source} to ${target}: ${megabytes(statSync(target).size)} in ${seconds} s (${holds}).`;
  } finally {
    database.close();
    removeCopy(partial);
  }
}

/** Why a file that passed `openPiaffeDatabase` cannot be restored: said in one line after its name. */
class Refusal extends Error {}

/** A database's schema as `schemaOf` reads it. */
type Schema = Map<string, string>;

/**
 * Every table, index, trigger and view of a database, by type and name, with the SQL that makes it. SQLite's
 * statistics tables (`ANALYZE`) are left out: they change no schema and an operator may make them.
 */
function schemaOf(database: Prepares): Schema {
  const rows = database
    .prepare("select type, name, tbl_name as tbl, sql from sqlite_master where name not like 'sqlite_stat%'")
    .all() as { type: string; name: string; tbl: string; sql: string | null }[];
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, `${row.tbl}: ${row.sql ?? ''}`]));
}

/** Migrates the database `file` as the shop does when it starts (Better Auth's tables, then ours), then reads it. */
async function migrated<T>(file: string, config: Config, read: (database: Prepares) => T): Promise<T> {
  const opened = openSqlite(`file:${file}`);
  try {
    const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'warn');
    try {
      await migrateDatabase(opened, createAuth(opened.db, 'sqlite', config, log));
    } catch (error) {
      throw new Refusal(`this version cannot bring it up to date (${(error as Error).message}).`);
    }
    return read(opened.sqlite);
  } finally {
    await opened.db.destroy();
  }
}

/** The schema this version makes: the shop's own migrations run on a new database, in a folder of its own. */
async function expectedSchema(config: Config): Promise<Schema> {
  const folder = mkdtempSync(join(tmpdir(), 'piaffe-schema-'));
  try {
    return await migrated(join(folder, 'shop.db'), config, schemaOf);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The first way `actual` is not `expected`, in words; undefined when they are the same. */
function difference(actual: Schema, expected: Schema): string | undefined {
  for (const [key, sql] of actual) {
    if (!expected.has(key)) return `it has ${key}, which Piaffe does not make.`;
    if (expected.get(key) !== sql) return `its ${key} is not as Piaffe makes it.`;
  }
  for (const key of expected.keys()) {
    if (!actual.has(key)) return `it lacks ${key}.`;
  }
  return undefined;
}

/**
 * Checks the copy `file` of a backup completely, bringing it up to this version on the way: whole (SQLite's
 * integrity check), and, migrated, with exactly the tables, indexes, triggers and views this version makes, from
 * the one source of them (the migrations, run on a new database). Answers what it holds; a file that fails throws
 * a `Refusal`.
 */
async function checkCopy(file: string, config: Config): Promise<string> {
  const whole = new SQLite(file, { readonly: true, fileMustExist: true });
  let problems: string[];
  try {
    // Up to 100 rows of problems, each of one or more lines; the first says enough for one line.
    problems = (whole.prepare('pragma integrity_check').all() as { integrity_check: string }[])
      .flatMap((row) => row.integrity_check.split('\n'))
      .filter((line) => !line.startsWith('***'));
  } catch (error) {
    // Some damage stops the check itself ('database disk image is malformed').
    problems = [(error as Error).message];
  } finally {
    whole.close();
  }
  if (problems.join() !== 'ok') throw new Refusal(`it is damaged (SQLite's integrity check: ${problems[0]}).`);
  const expected = await expectedSchema(config);
  return migrated(file, config, (database) => {
    const differs = difference(schemaOf(database), expected);
    if (differs) throw new Refusal(differs);
    return contents(database);
  });
}

/** Why the shop's database `target` cannot be replaced now; undefined when it can (or does not exist). */
function targetRefusal(target: string, force: boolean): string | undefined {
  const existing = entryAt(target);
  if (existing?.isSymbolicLink()) return `${target} is a symbolic link: point DATABASE_URL at the file itself.`;
  if (!existing) return undefined;
  if (inUse(target)) return `The shop is running on ${target}: stop it first, then restore.`;
  if (!force) return `${target} exists: add --force to replace it (the old file is then kept beside it).`;
  return undefined;
}

/**
 * Keeps the shop's database `target` beside it as `aside`, under its name until the new one replaces it (a hard
 * link); its WAL and shared-memory files, if a crash left any, go with it: beside the new one they would corrupt it.
 */
function keepAside(target: string, aside: string): void {
  linkSync(target, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(target + suffix)) renameSync(target + suffix, aside + suffix);
  }
}

async function restore(file: string, force: boolean): Promise<string> {
  const config = shopConfig();
  const target = shopFile(config);
  const source = resolve(file);
  const backupFile = openPiaffeDatabase(source);
  const refused = targetRefusal(target, force);
  if (refused) fail(refused);
  // The backup is copied beside the target, checked and migrated there, and only then takes the target's name.
  const madeFolder = makePrivateFolder(dirname(target));
  const copy = besides(target, 'restoring');
  try {
    createPrivateFile(copy);
    await backupFile.backup(copy);
    backupFile.close();
    const holds = await checkCopy(copy, config);
    // The check takes seconds: the shop may have been started on the target meanwhile.
    const now = targetRefusal(target, force);
    if (now) throw new Refusal(now);
    let kept = '';
    if (existsSync(target)) {
      const aside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      keepAside(target, aside);
      kept = ` The old database is kept as ${aside}.`;
    }
    renameSync(copy, target);
    return `Restored ${source} to ${target} (${holds}).${kept} Start the shop: npm start.`;
  } catch (error) {
    removeCopy(copy);
    if (madeFolder) rmSync(madeFolder, { recursive: true, force: true });
    if (error instanceof Refusal) fail(`${source} cannot be restored, and nothing was changed: ${error.message}`);
    throw error;
  }
}

async function run(args: string[]): Promise<string> {
  const [command, file, ...rest] = args;
  const force = rest.length === 1 && rest[0] === '--force' && command === 'restore';
  if (!file || (rest.length > 0 && !force) || !(command === 'backup' || command === 'restore')) fail(usage, 2);
  return command === 'backup' ? backup(resolve(file)) : restore(file, force);
}

await answer(run(process.argv.slice(2)));
