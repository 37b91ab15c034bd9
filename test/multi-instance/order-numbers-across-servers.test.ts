import { afterAll, beforeAll, it } from 'vitest';
import { raceForOrderNumbers } from '../support/order-numbers';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

/** Order numbers across two servers on one PostgreSQL schema (docs/decisions/0015-orders.md, 0029). */
let schema: TestSchema;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  schema = await createTestSchema();
  a = await startTestServer({}, { schema, name: 'a' });
  b = await startTestServer({}, { schema, name: 'b' });
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await schema?.drop();
});

it('numbers orders placed at once through both servers without a gap, while units that took a number roll back', async () => {
  await raceForOrderNumbers([a.url, b.url], [a.db, b.db], 12);
}, 60_000);
