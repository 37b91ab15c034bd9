import { afterEach } from 'vitest';
import { type ChildOptions, type ChildServer, startChild } from './child-server';
import { createDatabase, type TestDatabase } from './test-database';

/**
 * A crash test's scene (test/reliability): a database of its own, the server as a child process on it (started again
 * on the same database after a kill), and what else the test opens (a mailbox, the fake of Stripe). After each test,
 * whatever it did, the server is killed, the database dropped and the rest closed.
 */
export function crashScene() {
  let database: TestDatabase | undefined;
  let server: ChildServer | undefined;
  const opened: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await server?.kill('SIGKILL');
    await database?.drop();
    for (const thing of opened.splice(0)) await thing.close();
    server = undefined;
    database = undefined;
  });
  return {
    /** This test's database, new. */
    async database(): Promise<TestDatabase> {
      database = await createDatabase();
      return database;
    },
    /** The server on this test's database; again after a kill, on the same database. */
    async start(options: Omit<ChildOptions, 'database'> = {}): Promise<ChildServer> {
      if (!database) throw new Error('crashScene: the database comes first (scene.database())');
      server = await startChild({ ...options, database });
      return server;
    },
    /** `thing`, closed after the test. */
    closing<T extends { close(): Promise<unknown> }>(thing: T): T {
      opened.push(thing);
      return thing;
    },
  };
}
