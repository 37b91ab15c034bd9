import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/server/db/database';
import { openPostgres } from '../../src/server/db/open';
import { createLogger } from '../../src/server/log';
import { createTestSchema, type TestSchema } from '../support/postgres';

describe.runIf(process.env.TEST_BACKEND === 'postgres')("PostgreSQL's precompiled queries", () => {
  let schema: TestSchema;
  let db: Db;
  beforeAll(async () => {
    schema = await createTestSchema();
    await schema.query(`create table counter (name text primary key, value integer not null)`);
    await schema.query(`insert into counter values ('a', 7)`);
    const log = createLogger('silent');
    db = await createDb(openPostgres(schema.url(), log), log);
  });
  afterAll(async () => {
    await db?.close();
    await schema?.drop();
  });

  it('are named statements, each prepared once on a connection; other queries are not', async () => {
    const counterValue = db.precompile(1, (name: string) =>
      db.kysely.selectFrom('counter').select('value').where('name', '=', name),
    );
    const prepared = await db.run(async (uow) => {
      expect(await counterValue(uow.trx, 'a')).toEqual([{ value: 7 }]);
      expect(await counterValue(uow.trx, 'b')).toEqual([]);
      await uow.trx.selectFrom('counter').select('name').where('value', '>', 0).execute();
      const { rows } = await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements`.execute(uow.trx);
      return rows;
    });
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^piaffe_\d+$/), statement: 'select "value" from "counter" where "name" = $1' },
    ]);
  });

  it('run with JIT compilation off, on every connection of the pool (docs/decisions/0066-reports-at-size.md)', async () => {
    const settings = await Promise.all(
      Array.from({ length: 4 }, () =>
        db.run(async (uow) => (await sql<{ jit: string }>`show jit`.execute(uow.trx)).rows[0]?.jit),
      ),
    );
    expect(settings).toEqual(['off', 'off', 'off', 'off']);
  });
});
