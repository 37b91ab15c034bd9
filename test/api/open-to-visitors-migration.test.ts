import { afterAll, expect, it } from 'vitest';
import { Client } from '../support/client';
import { startTestServer } from '../support/server';
import { serverWithOwner } from '../support/shop-with-owner';
import { createDatabase, type TestDatabase, undoOpenToVisitors } from '../support/test-database';

/**
 * Migration 0038 on a shop from before visitors (docs/decisions/0055-open-to-visitors.md): the shop is made with this
 * version, taken back to before it with a rider's cart full, and started again.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

it("starts an upgraded shop 'Members only', with every rider's cart as it was", async () => {
  database = await createDatabase();
  const { server: first, owner } = await serverWithOwner({ DATABASE_URL: database.url });
  const rider = new Client(first.url);
  const { email: riderEmail } = await rider.signup();
  const rows = [await rider.add('1'), await rider.add('2')];
  await first.stop();

  await undoOpenToVisitors(database);
  const server = await startTestServer({ DATABASE_URL: database.url });
  try {
    const again = new Client(server.url);
    expect((await again.login(owner.user?.email ?? '', 'secret1')).status).toBe(200);
    expect((await again.json('GET', '/api/admin/settings')).body.settings.access).toEqual({ openTo: 'members' });
    expect((await new Client(server.url).json('GET', '/api/cart')).status).toBe(401);
    const back = new Client(server.url);
    expect((await back.login(riderEmail, 'secret1')).status).toBe(200);
    expect((await back.json('GET', '/api/cart')).body.items).toEqual(rows);
  } finally {
    await server.stop();
  }
});
