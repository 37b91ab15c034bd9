import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { accountRoutes } from './account/routes';
import type { AppEnv } from './app-env';
import type { Auth } from './auth/auth';
import { createDeviceCookies } from './auth/device-cookie';
import { authRoutes } from './auth/routes';
import type { Sessions } from './auth/session';
import type { LoginThrottle } from './auth/throttle';
import type { LiveStreams } from './cart/live-stream';
import { cartRoutes } from './cart/routes';
import type { Config } from './config';
import type { Store } from './db/store';
import { errorResponse, HttpError } from './http/errors';
import { log } from './http/log';
import { isHttps, noStore, sameOriginOnly, securityHeaders } from './http/security';
import { staticFiles } from './static-files';

export interface AppParts {
  config: Config;
  auth: Auth;
  sessions: Sessions;
  store: Store;
  throttle: LoginThrottle;
  streams: LiveStreams;
  /** True once a graceful shutdown has begun: new API requests are turned away. */
  isClosing: () => boolean;
}

export const maxBodyBytes = 16 * 1024;

/** Builds the whole HTTP app; server.ts gives it a database and a port, tests give it a throwaway one. */
export function buildApp({ config, auth, sessions, store, throttle, streams, isClosing }: AppParts) {
  const devices = createDeviceCookies(config.authSecret, isHttps(config.publicUrl));
  const api = new Hono<AppEnv>()
    .use(noStore)
    .use(async (c, next) => {
      if (isClosing()) return errorResponse(c, 'server/unavailable', undefined, { Connection: 'close' });
      await next();
    })
    .use(bodyLimit({ maxSize: maxBodyBytes, onError: (c) => errorResponse(c, 'request/body-too-large') }))
    .use(sameOriginOnly(config.publicUrl))
    .route('/auth', authRoutes(auth, sessions, store, throttle, devices, config.trustProxy))
    .route('/account', accountRoutes(auth, sessions, store, devices))
    .route('/cart', cartRoutes(sessions, store, streams))
    .all('*', (c) => errorResponse(c, 'request/not-found'));

  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    log('info', 'request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });
  app.use(securityHeaders(config.publicUrl));
  app.get('/healthz', async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      await store.ping();
      return c.json({ status: isClosing() ? 'closing' : 'ok' }, isClosing() ? 503 : 200);
    } catch {
      return c.json({ status: 'database unavailable' }, 503);
    }
  });
  app.route('/api', api);
  app.get('*', staticFiles(config.distDir));
  app.all('*', (c) => errorResponse(c, 'request/not-found'));

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error.code, error.message, error.headers);
    log('error', 'unhandled error', { method: c.req.method, path: c.req.path, error: String(error?.stack ?? error) });
    return errorResponse(c, 'server/internal');
  });
  return app;
}
