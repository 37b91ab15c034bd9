import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAccounts } from './account/accounts';
import { buildApp } from './app';
import { createAuth } from './auth/auth';
import { createLoginAttemptStore } from './auth/login-attempt-store';
import { createSessions } from './auth/sessions';
import { createLoginThrottle } from './auth/throttle';
import { createCartStore } from './cart/cart-store';
import { LiveStreams } from './cart/live-stream';
import type { Config } from './config';
import { migrateDatabase, openDatabase } from './db/connect';
import { createDb, type Db } from './db/database';
import { createLogger, type Logger } from './log';

export interface RunningServer {
  url: string;
  db: Db;
  log: Logger;
  /** Graceful shutdown: stop accepting, end live streams, let in-flight requests finish, close the database. */
  close(): Promise<void>;
}

const shutdownGraceMs = 10_000;

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const opened = openDatabase(config.databaseUrl, log);
  const auth = createAuth(opened.db, opened.dialect, config);
  let db: Db;
  try {
    await migrateDatabase(opened, auth);
    db = await createDb(opened, log);
  } catch (error) {
    await opened.db.destroy().catch(() => {});
    throw error;
  }
  const sessions = await createSessions(auth, db, log);
  const cart = createCartStore(db);
  const throttle = createLoginThrottle(createLoginAttemptStore(db));
  const accounts = createAccounts({ db, sessions, cart, throttle });
  const streams = new LiveStreams(db.feed, cart, sessions);
  let closing = false;
  const app = buildApp({
    config,
    log,
    auth,
    db,
    sessions,
    throttle,
    accounts,
    cart,
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
  log.info({ url, database: opened.dialect }, 'listening');

  let closed: Promise<void> | undefined;
  async function close() {
    closing = true;
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    streams.closeAll();
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    const force = setTimeout(() => 'closeAllConnections' in server && server.closeAllConnections(), shutdownGraceMs);
    await drained;
    clearTimeout(force);
    await db.close();
    log.info('closed');
  }
  return {
    url,
    db,
    log,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
