import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { openStockStream } from '../support/event-stream';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Two shops on two schemas of one PostgreSQL database (as the test runs are, and as an operator may host them): NOTIFY
 * reaches every session of the database, so each shop's changes go out on a channel of its schema's own
 * (docs/decisions/0008-postgres-listen-notify.md).
 */
let schema: TestSchema;
let other: TestServer;
let b: TestServer;
let c: TestServer;

beforeAll(async () => {
  other = await startTestServer({}, { name: 'other-shop' });
  schema = await createTestSchema();
  b = await startTestServer({}, { schema, name: 'b' });
  c = await startTestServer({}, { schema, name: 'c' });
});
afterAll(async () => {
  await Promise.all([other?.stop(), b?.stop(), c?.stop()]);
  await schema?.drop();
});

describe('shops on two schemas of one database', () => {
  it("hear nothing of each other's changes: B's page has C's change first, not the other shop's made before it", async () => {
    const rider = new Client(b.url);
    await rider.signup();
    const page = await openStockStream(rider);
    try {
      await page.next('snapshot');
      // PostgreSQL delivers notifications in the order their transactions committed: were the other shop's heard on
      // B, it would come before C's.
      await other.stock.set(11, { itemid: '1', size: 'Pony' });
      await c.stock.set(12, { itemid: '2', size: '17"' });
      expect(await page.next('stock')).toEqual({ type: 'stock', itemid: '2', size: '17"', stock: 12 });
    } finally {
      page.close();
    }
  });
});
