import { afterAll, beforeAll } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client } from './client';
import { startTestServer, type TestServer } from './server';

export interface ShopWithOwner {
  readonly server: TestServer;
  /** A confirmed account with the owner's role, signed in. */
  readonly owner: Client;
}

/**
 * A test server (on the database `env` names, if it does) and its owner: for a test that stops it and starts another
 * on the same database, as the migrations' tests do.
 */
export async function serverWithOwner(env?: Parameters<typeof startTestServer>[0]): Promise<ShopWithOwner> {
  const server = await startTestServer(env);
  const owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
  return { server, owner };
}

/** For the tests of one file: a test server and its owner, started before the file's tests and stopped after them. */
export function shopWithOwner(): ShopWithOwner {
  const parts = {} as { server: TestServer; owner: Client };
  beforeAll(async () => {
    Object.assign(parts, await serverWithOwner());
  });
  afterAll(async () => {
    await parts.server?.stop();
  });
  return parts;
}
