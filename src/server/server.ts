import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { buildApp } from './app';
import { createAuth } from './auth/auth';
import { createSessions } from './auth/session';
import { createLoginThrottle } from './auth/throttle';
import { LiveStreams } from './cart/live-stream';
import type { Config } from './config';
import { createStore, migrateDatabase, openDatabase } from './db/connect';
import type { Store } from './db/store';
import { log } from './http/log';

export interface RunningServer {
  url: string;
  store: Store;
  /** Graceful shutdown: stop accepting, end live streams, let in-flight requests finish, close the database. */
  close(): Promise<void>;
}

const shutdownGraceMs = 10_000;

export async function startServer(config: Config): Promise<RunningServer> {
  const opened = openDatabase(config.databaseUrl);
  const auth = createAuth(opened.db, opened.dialect, config);
  let store: Store;
  try {
    await migrateDatabase(opened, auth);
    store = await createStore(opened);
  } catch (error) {
    await opened.db.destroy().catch(() => {});
    throw error;
  }
  const streams = new LiveStreams(auth, store);
  let closing = false;
  const app = buildApp({
    config,
    auth,
    sessions: await createSessions(auth, store),
    store,
    throttle: createLoginThrottle(store.loginAttempts),
    streams,
    isClosing: () => closing,
  });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  log('info', 'listening', { url, database: opened.dialect });

  let closed: Promise<void> | undefined;
  async function close() {
    closing = true;
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    streams.closeAll();
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    const force = setTimeout(() => 'closeAllConnections' in server && server.closeAllConnections(), shutdownGraceMs);
    await drained;
    clearTimeout(force);
    await store.close();
    log('info', 'closed');
  }
  return {
    url,
    store,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
