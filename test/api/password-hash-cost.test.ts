import { verifyPassword } from 'better-auth/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChild } from '../support/child-server';
import { Client } from '../support/client';

/**
 * The tests hash passwords at scrypt N 1024 (vitest.config.ts); a shop started as `npm start` starts it, with neither
 * PASSWORD_HASH_COST nor PIAFFE_TEST in its environment, hashes at the default, Better Auth's N 16384
 * (docs/decisions/0056-password-hashing-cost-in-tests.md).
 */
describe('the password hashing cost of a shop started without PASSWORD_HASH_COST', () => {
  let server: ChildServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("stores Better Auth's own hash at N 16384, and a rider logs in with it", async () => {
    expect(process.env.PASSWORD_HASH_COST).toBe('1024');
    server = await startChild({ env: { PASSWORD_HASH_COST: '', PIAFFE_TEST: '' } });
    const rider = new Client(server.url);
    const user = await rider.signup(undefined, 'secret1');
    const [row] = await server.database.query<{ password: string }>(
      `select a.password from account a join "user" u on u.id = a."userId" where u.email = $1 and a."providerId" = 'credential'`,
      [user.email],
    );
    const hash = row?.password ?? '';
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: 'secret1' })).toBe(true);
    expect((await new Client(server.url).login(user.email, 'secret1')).status).toBe(200);
  }, 90_000);
});
