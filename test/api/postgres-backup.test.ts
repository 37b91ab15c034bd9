import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { createTestSchema, type TestSchema, testDatabaseUrl, urlOnSchema } from '../support/postgres';
import { startTestServer } from '../support/server';

const run = promisify(execFile);

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
    await run('pg_dump', ['--format=custom', `--schema=${schema.schema}`, `--file=${dump}`, testDatabaseUrl]);
    await admin(`create database ${restoredDatabase}`);
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
});
