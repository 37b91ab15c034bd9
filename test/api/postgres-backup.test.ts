import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { createTestSchema, type TestSchema, testDatabaseUrl, urlOnSchema } from '../support/postgres';
import { startTestServer } from '../support/server';

const run = promisify(execFile);
/** The kinds of `pg_restore --list` entries that Piaffe's schema never has (docs/OPERATIONS.md). */
const neverMadePattern =
  '^[0-9]+; [0-9]+ [0-9]+ (FUNCTION|PROCEDURE|AGGREGATE|TRIGGER|EVENT TRIGGER|VIEW|MATERIALIZED VIEW|RULE|POLICY) ';

/** The commands of docs/OPERATIONS.md, "PostgreSQL": pg_dump, pg_restore into a new database, and a shop on it. */
describe.runIf(process.env.TEST_BACKEND === 'postgres')('a PostgreSQL backup', () => {
  let schema: TestSchema;
  let dir: string;
  const restoredDatabase = `piaffe_restored_${randomBytes(4).toString('hex')}`;
  const restoredUrl = Object.assign(new URL(testDatabaseUrl), { pathname: `/${restoredDatabase}` }).toString();

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  /**
   * docs/OPERATIONS.md's backup line, for the test's schema: the dump readable by its owner alone from its first
   * byte (umask 077), never over a file that exists nor through a symbolic link (the shell's noclobber).
   */
  const dumpTo = (file: string) =>
    run('sh', ['-c', '(umask 077; set -C; pg_dump --format=custom --schema="$SCHEMA" "$DATABASE_URL" > "$DUMP")'], {
      env: { ...process.env, SCHEMA: schema.schema, DATABASE_URL: testDatabaseUrl, DUMP: file },
    });
  /** docs/OPERATIONS.md's check before a restore: what it prints, Piaffe never makes. */
  const neverMade = async (file: string) =>
    (
      await run('sh', ['-c', `pg_restore --list "$DUMP" | grep -E '${neverMadePattern}' || true`], {
        env: { ...process.env, DUMP: file },
      })
    ).stdout;

  /** docs/OPERATIONS.md: a dump of one schema leaves out the extensions of `public`; the new database makes them. */
  async function extensionsIn(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('create extension unaccent schema public; create extension pg_trgm schema public');
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    schema = await createTestSchema();
    dir = mkdtempSync(join(tmpdir(), 'piaffe-pg-dump-'));
  });
  afterAll(async () => {
    await schema?.drop();
    await admin(`drop database if exists ${restoredDatabase}`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('dumps, restores into a new database, and a shop started on it has the riders and their orders', async () => {
    const shop = await startTestServer({}, { schema });
    const rider = new Client(shop.url);
    const { email } = await rider.signupConfirmed();
    const order = await rider.order('2', '6');
    await shop.stop();

    const dump = join(dir, 'piaffe.dump');
    await dumpTo(dump);
    expect(statSync(dump).mode & 0o777).toBe(0o600);
    expect(await neverMade(dump)).toBe('');
    await admin(`create database ${restoredDatabase}`);
    await extensionsIn(restoredUrl);
    await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]);

    const restored = await startTestServer(
      {},
      {
        schema: {
          ...schema,
          url: (name = 'restored') => urlOnSchema(restoredUrl, schema.schema, `${schema.schema}_${name}`),
        },
      },
    );
    try {
      const again = new Client(restored.url);
      expect((await again.login(email, 'secret1')).status).toBe(200);
      const orders = await again.json('GET', '/api/orders');
      expect(orders.body.orders).toEqual([expect.objectContaining({ number: order.number, itemCount: 2 })]);
      expect((await again.json('GET', `/api/orders/${order.number}`)).body.order.lines).toHaveLength(2);
    } finally {
      await restored.stop();
    }
  });

  it('never writes a dump through a link or over a file, and the check before a restore finds a trigger', async () => {
    const link = join(dir, 'link.dump');
    const elsewhere = join(dir, 'elsewhere.dump');
    symlinkSync(elsewhere, link);
    await expect(dumpTo(link)).rejects.toMatchObject({ code: 2 });
    expect(existsSync(elsewhere)).toBe(false);
    await expect(dumpTo(join(dir, 'piaffe.dump'))).rejects.toMatchObject({ code: 2 });

    // A trigger that makes every new log-in an owner, added to the shop's schema: the check names it.
    await schema.query(`create function owner_on_login() returns trigger language plpgsql as $$
      begin insert into user_role (uid, role) values (new."userId", 'owner') on conflict do nothing; return new; end $$`);
    await schema.query(
      'create trigger owner_on_login after insert on session for each row execute function owner_on_login()',
    );
    const changed = join(dir, 'changed.dump');
    await dumpTo(changed);
    const found = (await neverMade(changed)).trim().split('\n');
    expect(found).toEqual([
      expect.stringMatching(/ FUNCTION \S+ owner_on_login\(\) /),
      expect.stringMatching(/ TRIGGER \S+ session owner_on_login /),
    ]);
  });
});
