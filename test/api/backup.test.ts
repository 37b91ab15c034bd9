import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationNames } from '../../src/server/db/migrations';
import { firstTax } from '../../src/server/db/migrations/0025-tax-settings';
import { firstCancelUnpaid } from '../../src/server/db/migrations/0035-unpaid-bank-transfers';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { confirmedRider } from '../support/client';
import { runCommand } from '../support/command-line';
import { startTestServer } from '../support/server';
import { createDatabase, serverOnOwnDatabase, undoOpenToVisitorsOnSqlite } from '../support/test-database';

/** `npm run backup` and `npm run restore` (src/server/backup-cli.ts) as child processes; SQLite only. */
describe.runIf(process.env.TEST_BACKEND !== 'postgres')('backup and restore', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'piaffe-backup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const command = (databaseUrl: string, ...args: string[]) => runCommand('backup', databaseUrl, args);

  /** A DATABASE_URL in a folder that does not exist yet. */
  const target = () => `file:${join(dir, `target-${Math.random().toString(36).slice(2)}`, 'shop.db')}`;
  /** The permission bits of a file or folder, e.g. 0o600. */
  const mode = (path: string) => statSync(path).mode & 0o777;

  /** A refusal: exit code 1, nothing on stdout, exactly one line on stderr, matching `line`. */
  function expectRefusal(result: { code: number; stdout: string; stderr: string }, line: RegExp) {
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.split('\n')).toEqual([expect.stringMatching(line), '']);
  }

  /** A backup of a new shop, made by the command. */
  let good: string;
  beforeAll(async () => {
    const database = await createDatabase('sqlite');
    const server = await startTestServer({ DATABASE_URL: database.url });
    await server.stop();
    good = join(dir, 'good.db');
    expect((await command(database.url, 'backup', good)).code).toBe(0);
    await database.drop();
  });

  /** A stopped shop's database (a copy of the good backup), and a way to see that a refused restore left it as it was. */
  function stoppedShop() {
    const url = target();
    const file = url.slice('file:'.length);
    const folder = join(file, '..');
    mkdirSync(folder);
    copyFileSync(good, file);
    const state = () => ({
      files: readdirSync(folder).sort(),
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    });
    return { url, before: state(), state };
  }

  /** A copy of the good backup, changed by `sql`. */
  function changedBackup(name: string, sql: string) {
    const file = join(dir, name);
    copyFileSync(good, file);
    const changed = new SQLite(file);
    changed.exec(sql);
    changed.close();
    return file;
  }

  describe('a backup taken while riders add and order', () => {
    const shop = serverOnOwnDatabase('sqlite');

    it('restores into a shop where every order acknowledged before it began is whole', async () => {
      const riders = await Promise.all(Array.from({ length: 3 }, () => confirmedRider(shop.server.url)));
      const acknowledged: string[] = [];
      let stop = false;
      const load = Promise.all(
        riders.map(async (rider) => {
          // Few enough that the shop's WAL holds them all (no checkpoint yet), so a copy of the file would miss them.
          for (let round = 0; round < 6 && !stop; round++) {
            const order = await rider.order('1', '5');
            acknowledged.push(order.number);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }),
      );
      while (acknowledged.length < 6) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = [...acknowledged];
      const file = join(dir, 'running.db');
      const backedUp = await command(shop.database.url, 'backup', file);
      stop = true;
      await load;
      expect(backedUp.code).toBe(0);
      expect(backedUp.stdout).toMatch(
        /^Backed up .* to .*running\.db: [\d.]+ MB in [\d.]+ s \(3 riders, \d+ orders, \d+ e-mails\)\.\n$/,
      );

      // Restored into a new place, the shop starts on it, and every order from before the backup is there, whole.
      const restoredUrl = `file:${join(dir, 'restored', 'shop.db')}`;
      expect((await command(restoredUrl, 'restore', file)).code).toBe(0);
      const restoredShop = await startTestServer({ DATABASE_URL: restoredUrl });
      await restoredShop.stop();
      const restored = new SQLite(restoredUrl.slice('file:'.length), { readonly: true });
      try {
        for (const number of before) {
          const row = restored
            .prepare(
              `select o.item_count as items, (select count(*) from order_line l where l.order_number = o.number) as lines,
                 (select count(*) from outbox e where e.kind = 'order-confirmation' and e.subject like '%' || ? || '%') as mails
               from shop_order o where o.number = ?`,
            )
            .get(number, Number(number.slice(3))) as { items: number; lines: number; mails: number } | undefined;
          expect(row, number).toEqual({ items: 2, lines: 2, mails: 1 });
        }
        expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        restored.close();
      }
    });

    it('refuses to restore over the running shop, in one line', async () => {
      const file = join(dir, 'for-running.db');
      expect((await command(shop.database.url, 'backup', file)).code).toBe(0);
      expectRefusal(
        await command(shop.database.url, 'restore', file, '--force'),
        /^The shop is running on .*: stop it first/,
      );
    });
  });

  describe('restore refuses, each in one line with exit code 1', () => {
    it('a file that is not SQLite', async () => {
      const file = join(dir, 'picture.jpg');
      writeFileSync(file, 'not a database at all, but long enough to look like a file header');
      expectRefusal(await command(target(), 'restore', file), /is not a SQLite database\.$/);
    });

    it('a SQLite file that is not a Piaffe database', async () => {
      const file = join(dir, 'other.db');
      const other = new SQLite(file);
      other.exec('create table notes (text)');
      other.close();
      expectRefusal(await command(target(), 'restore', file), /is not a Piaffe database\.$/);
    });

    it('a backup from a newer version', async () => {
      const file = join(dir, 'newer.db');
      expect((await command(`file:${good}`, 'backup', file)).code).toBe(0);
      const newer = new SQLite(file);
      newer.prepare('insert into piaffe_migration (name, timestamp) values (?, ?)').run('9999-from-the-future', 'now');
      newer.close();
      expectRefusal(await command(target(), 'restore', file), /comes from a newer version of Piaffe \(migration 9999/);
    });

    it('a target that exists, without --force; with it, the old file is kept beside', async () => {
      const url = target();
      expect((await command(url, 'restore', good)).code).toBe(0);
      expectRefusal(await command(url, 'restore', good), /exists: add --force to replace it/);
      const forced = await command(url, 'restore', good, '--force');
      expect(forced.code).toBe(0);
      expect(forced.stdout).toMatch(/The old database is kept as .*shop\.db\.before-restore-/);
      const folder = join(url.slice('file:'.length), '..');
      expect(readdirSync(folder).filter((name) => name.startsWith('shop.db.before-restore-'))).toHaveLength(1);
      expect(existsSync(url.slice('file:'.length))).toBe(true);
    });

    it('a file that holds only the migration table, every migration named; the shop is left as it was', async () => {
      const file = join(dir, 'only-migrations.db');
      const source = new SQLite(good, { readonly: true });
      const only = new SQLite(file);
      const { sql } = source.prepare("select sql from sqlite_master where name = 'piaffe_migration'").get() as {
        sql: string;
      };
      only.exec(sql);
      const insert = only.prepare('insert into piaffe_migration (name, timestamp) values (?, ?)');
      for (const row of source.prepare('select name, timestamp from piaffe_migration').all() as {
        name: string;
        timestamp: string;
      }[]) {
        insert.run(row.name, row.timestamp);
      }
      expect(only.prepare('select count(*) as n from piaffe_migration').get()).toEqual({ n: migrationNames.length });
      only.close();
      source.close();

      const shop = stoppedShop();
      expectRefusal(
        await command(shop.url, 'restore', file, '--force'),
        /only-migrations\.db cannot be restored, and nothing was changed: it lacks table \w+\.$/,
      );
      expect(shop.state()).toEqual(shop.before);
    });

    it('a real backup with a trigger added that makes every new log-in an owner; the shop is left as it was', async () => {
      const file = changedBackup(
        'with-trigger.db',
        `create trigger session_owner after insert on session begin
           insert or ignore into user_role (uid, role) values (new.userId, 'owner');
         end`,
      );
      const shop = stoppedShop();
      expectRefusal(
        await command(shop.url, 'restore', file, '--force'),
        /with-trigger\.db cannot be restored, and nothing was changed: it has trigger session_owner, which Piaffe does not make\.$/,
      );
      expect(shop.state()).toEqual(shop.before);
    });

    it('a damaged file; the shop is left as it was', async () => {
      const file = changedBackup('damaged.db', '');
      const database = new SQLite(file, { readonly: true });
      const pageSize = database.pragma('page_size', { simple: true }) as number;
      const { rootpage } = database
        .prepare("select rootpage from sqlite_master where type = 'index' and tbl_name = 'product_size'")
        .get() as { rootpage: number };
      database.close();
      // The index's first cell pointers (after its page's 8-byte header) point off the page.
      const bytes = readFileSync(file);
      bytes.fill(0xff, (rootpage - 1) * pageSize + 8, (rootpage - 1) * pageSize + 12);
      writeFileSync(file, bytes);
      const shop = stoppedShop();
      expectRefusal(
        await command(shop.url, 'restore', file, '--force'),
        /damaged\.db cannot be restored, and nothing was changed: it is damaged \(SQLite's integrity check: .+\)\.$/,
      );
      expect(shop.state()).toEqual(shop.before);
    });

    it('a view of a name Piaffe does not make', async () => {
      const file = changedBackup('with-view.db', 'create view riders as select email from user');
      expectRefusal(await command(target(), 'restore', file), /: it has view riders, which Piaffe does not make\.$/);
    });

    it('an index of a name Piaffe does not make', async () => {
      const file = changedBackup('with-index.db', 'create index user_name on user (name)');
      expectRefusal(
        await command(target(), 'restore', file),
        /: it has index user_name, which Piaffe does not make\.$/,
      );
    });

    it('a table Piaffe makes, made otherwise', async () => {
      const file = changedBackup('changed-table.db', 'alter table cart_item add column note text');
      expectRefusal(await command(target(), 'restore', file), /: its table cart_item is not as Piaffe makes it\.$/);
    });

    it('a migration skipped', async () => {
      const file = changedBackup('skipped.db', "delete from piaffe_migration where name = '0002-device-epoch'");
      expectRefusal(
        await command(target(), 'restore', file),
        /skipped\.db is not a Piaffe database: it lacks migration 0002-device-epoch but has later ones\.$/,
      );
    });

    it('a backup file that would overwrite another', async () => {
      expectRefusal(await command(`file:${good}`, 'backup', good), /exists already: name a new file/);
    });

    it('a backup through a symbolic link, even one that leads nowhere: nothing is written where it leads', async () => {
      const link = join(dir, 'link.db');
      const elsewhere = join(dir, 'elsewhere.db');
      symlinkSync(elsewhere, link);
      expectRefusal(await command(`file:${good}`, 'backup', link), /link\.db is a symbolic link: name a new file/);
      expect(existsSync(elsewhere)).toBe(false);
    });
  });

  describe('a backup from an older version, and who may read the files', () => {
    it('a backup is one file, readable and writable by its owner only', async () => {
      const folder = mkdtempSync(join(dir, 'backups-'));
      const file = join(folder, 'copy.db');
      expect((await command(`file:${good}`, 'backup', file)).code).toBe(0);
      expect(readdirSync(folder)).toEqual(['copy.db']);
      expect(mode(file)).toBe(0o600);
    });

    it('restores a backup from before the last migration, brought up to date, readable by the shop alone', async () => {
      // As Piaffe made it before its last migrations, '0025-tax-settings' (settings without their tax section),
      // '0031-search-index-without-pending-list' (nothing on SQLite but its row), '0033-orders-by-number' (the
      // orders without their index of numbers), '0034-shop-address-in-parts' (the shop's address one line of text) and
      // '0035-unpaid-bank-transfers' (orders without their last day to pay, settings without 'Cancel unpaid orders'),
      // '0036-shop-format' (settings without their currency, locale and time zone), '0037-money-in-64-bits'
      // (nothing on SQLite but its row), '0038-open-to-visitors' (no visitors' carts, settings without 'Who can see
      // the shop'), '0039-back-in-stock' (no riders' waits), '0040-money-per-line' (order lines without
      // their shares of the discount and tax), '0041-returns' (no returns or refunds, settings without their returns
      // and reports) and '0042-report-columns' (no copies for the reports). (A new migration changes what this takes
      // back.)
      const last = migrationNames.at(-1);
      expect(last).toBe('0042-report-columns');
      const older = changedBackup(
        'older.db',
        `${undoOpenToVisitorsOnSqlite.join('; ')}; update shop_settings set document = json_set(json_remove(document, '$.tax', '$.bankTransfer.cancelUnpaid', '$.format'), '$.shop.address', '12 Arena Lane, Wellington, FL 33414'); alter table shop_order drop column pay_by; drop index shop_order_number; delete from piaffe_migration where name in ('0025-tax-settings', '0031-search-index-without-pending-list', '0033-orders-by-number', '0034-shop-address-in-parts', '0035-unpaid-bank-transfers', '0036-shop-format', '0037-money-in-64-bits')`,
      );

      const url = target();
      const restored = await command(url, 'restore', older);
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toMatch(/^Restored .*older\.db to .*shop\.db \(0 riders, 0 orders, 0 e-mails\)\./);
      const path = url.slice('file:'.length);
      expect(mode(path)).toBe(0o600);
      expect(mode(join(path, '..'))).toBe(0o700);
      expect(readdirSync(join(path, '..'))).toEqual(['shop.db']);
      const shop = new SQLite(path, { readonly: true });
      try {
        expect(shop.prepare('select name from piaffe_migration where name = ?').get(last)).toEqual({ name: last });
        expect(shop.prepare("select name from sqlite_master where name = 'shop_order_number'").get()).toBeDefined();
        const { document } = shop.prepare('select document from shop_settings').get() as { document: string };
        expect(JSON.parse(document).tax).toEqual(firstTax);
        expect(JSON.parse(document).bankTransfer.cancelUnpaid).toBe(firstCancelUnpaid);
        expect(JSON.parse(document).shop.address).toEqual(newShopSettings.shop.address);
        expect(JSON.parse(document).format).toEqual(newShopSettings.format);
        expect(JSON.parse(document).access).toEqual(newShopSettings.access);
        expect(shop.prepare("select name from pragma_table_info('shop_order') where name = 'pay_by'").get()).toEqual({
          name: 'pay_by',
        });
      } finally {
        shop.close();
      }
    });

    it('a shop started for the first time makes its folder 0700 and its database, WAL, shared memory and in-use lock 0600', async () => {
      const folder = join(dir, 'first-start', 'data');
      const server = await startTestServer({ DATABASE_URL: `file:${join(folder, 'shop.db')}` });
      try {
        expect(mode(join(dir, 'first-start'))).toBe(0o700);
        expect(mode(folder)).toBe(0o700);
        for (const name of ['shop.db', 'shop.db-wal', 'shop.db-shm', 'shop.db-in-use'])
          expect(mode(join(folder, name)), name).toBe(0o600);
      } finally {
        await server.stop();
      }
    });
  });
});
