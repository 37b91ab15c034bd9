import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../../src/server/config';
import { type RunningServer, startServer } from '../../src/server/server';

export type Backend = 'sqlite' | 'postgres';
export const backend: Backend = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestServer extends RunningServer {
  /** Makes every session of the user look as if it had been created `minutes` ago. */
  ageSessions(uid: string, minutes: number): Promise<void>;
  /** Row counts of every table that may hold the user's data, by table. */
  rowsOf(uid: string, email: string): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Starts the real server on an ephemeral port with a throwaway database of the backend under test. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-test-'));
  const file = join(dir, 'shop.db');
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `file:${file}`, AUTH_SECRET: 'test-secret-0123456789abcdef0123456789', ...env });
  const server = await startServer(config);
  const raw = () => new SQLite(file);
  return {
    ...server,
    async ageSessions(uid, minutes) {
      const db = raw();
      db.prepare('update session set createdAt = ? where userId = ?').run(new Date(Date.now() - minutes * 60_000).toISOString(), uid);
      db.close();
    },
    async rowsOf(uid, email) {
      const db = raw();
      const count = (query: string, ...args: string[]) => (db.prepare(query).get(...args) as { n: number }).n;
      const rows = {
        user: count('select count(*) as n from user where id = ? or email = ?', uid, email),
        session: count('select count(*) as n from session where userId = ?', uid),
        account: count('select count(*) as n from account where userId = ?', uid),
        cart_item: count('select count(*) as n from cart_item where uid = ?', uid),
        login_attempt: count('select count(*) as n from login_attempt where key = ?', `email:${email}`),
      };
      db.close();
      return rows;
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
