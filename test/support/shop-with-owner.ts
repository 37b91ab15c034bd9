import { afterAll, beforeAll } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client } from './client';
import { startTestServer, type TestServer } from './server';

export interface ShopWithOwner {
  readonly server: TestServer;
  /** A confirmed account with the owner's role, signed in. */
  readonly owner: Client;
}

/** For the tests of one file: a test server and its owner, started before the file's tests and stopped after them. */
export function shopWithOwner(): ShopWithOwner {
  const parts = {} as { server: TestServer; owner: Client };
  beforeAll(async () => {
    parts.server = await startTestServer();
    parts.owner = new Client(parts.server.url);
    const { email } = await parts.owner.signupConfirmed();
    await createRoles(parts.server.db).grant(email);
  });
  afterAll(async () => {
    await parts.server?.stop();
  });
  return parts;
}
