import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { runCommand } from '../support/command-line';
import { startTestServer } from '../support/server';
import { createDatabase, serverOnOwnDatabase } from '../support/test-database';

/** `npm run backup` and `npm run restore` (src/server/backup-cli.ts) as child processes; SQLite only. */
describe.runIf(process.env.TEST_BACKEND !== 'postgres')('backup and restore', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'piaffe-backup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const command = (databaseUrl: string, ...args: string[]) => runCommand('backup', databaseUrl, args);

  /** A refusal: exit code 1, nothing on stdout, exactly one line on stderr, matching `line`. */
  function expectRefusal(result: { code: number; stdout: string; stderr: string }, line: RegExp) {
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.split('\n')).toEqual([expect.stringMatching(line), '']);
  }

  describe('a backup taken while riders add and order', () => {
    const shop = serverOnOwnDatabase('sqlite');

    it('restores into a shop where every order acknowledged before it began is whole', async () => {
      const riders = await Promise.all(
        Array.from({ length: 3 }, async () => {
          const rider = new Client(shop.server.url);
          await rider.signupConfirmed();
          return rider;
        }),
      );
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
    let good: string;
    beforeAll(async () => {
      const database = await createDatabase('sqlite');
      const server = await startTestServer({ DATABASE_URL: database.url });
      await server.stop();
      good = join(dir, 'good.db');
      expect((await command(database.url, 'backup', good)).code).toBe(0);
      await database.drop();
    });
    const target = () => `file:${join(dir, `target-${Math.random().toString(36).slice(2)}`, 'shop.db')}`;

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

    it('a backup file that would overwrite another', async () => {
      expectRefusal(await command(`file:${good}`, 'backup', good), /exists already: name a new file/);
    });
  });
});
