import { afterAll, beforeAll } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client } from './client';
import { createTestSchema, type TestSchema } from './postgres';
import { startTestServer, type TestServer } from './server';

export interface TwoServers {
  /** The PostgreSQL schema both run on, readable by the test. */
  readonly schema: TestSchema;
  readonly a: TestServer;
  readonly b: TestServer;
  /** With `owner`: a confirmed account with the owner's role, signed in through A. */
  readonly owner: Client;
}

/**
 * For the tests of one file: two servers on one throwaway PostgreSQL schema, as behind a load balancer, each with
 * its own mailbox. Started before the file's tests (with `owner`, an owner signed in through A), stopped and the
 * schema dropped after them.
 */
export function twoServersOnOneSchema(options: { owner?: boolean } = {}): TwoServers {
  const parts = {} as { schema: TestSchema; a: TestServer; b: TestServer; owner: Client };
  beforeAll(async () => {
    parts.schema = await createTestSchema();
    parts.a = await startTestServer({}, { schema: parts.schema, name: 'a' });
    parts.b = await startTestServer({}, { schema: parts.schema, name: 'b' });
    if (!options.owner) return;
    parts.owner = new Client(parts.a.url);
    const { email } = await parts.owner.signupConfirmed();
    await createRoles(parts.a.db).grant(email);
  });
  afterAll(async () => {
    await Promise.all([parts.a?.stop(), parts.b?.stop()]);
    await parts.schema?.drop();
  });
  return parts;
}
