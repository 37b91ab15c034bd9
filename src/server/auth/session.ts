import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import type { Store } from '../db/store';
import { HttpError } from '../http/errors';
import { type Auth, recentLoginSeconds } from './auth';
import { type CachedSession, SessionCache } from './session-cache';

/** Copies the cookies Better Auth wants set (a new or refreshed session, or a cleared one) onto our response. */
export function forwardCookies(c: Context, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
}

export type Sessions = Awaited<ReturnType<typeof createSessions>>;

/** The request's session, through Better Auth and a cache that every server's session changes invalidate. */
export async function createSessions(auth: Auth, store: Store, cache = new SessionCache()) {
  const { authCookies } = await auth.$context;
  store.watchSessions({ changed: (uid) => cache.forgetUser(uid), lost: () => cache.clear() });

  /** The session of the request's cookie; null when there is none or it has ended. */
  async function find(c: Context): Promise<CachedSession | null> {
    const token = getCookie(c, authCookies.sessionToken.name);
    if (!token) return null;
    const cached = cache.get(token);
    if (cached) return cached;
    const epoch = cache.epoch;
    const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
    forwardCookies(c, headers);
    if (!response) return null;
    const found = {
      user: { uid: response.user.id, email: response.user.email },
      createdAt: new Date(response.session.createdAt),
    };
    cache.set(token, found, new Date(response.session.expiresAt).getTime(), epoch);
    return found;
  }

  return {
    find,

    /** Lets the request through only with a live session; `recent` also demands a log-in within 5 minutes. */
    require(options: { recent?: boolean } = {}): MiddlewareHandler<AppEnv> {
      return async (c, next) => {
        const found = await find(c);
        if (!found) throw new HttpError('auth/unauthenticated');
        if (options.recent && Date.now() - found.createdAt.getTime() > recentLoginSeconds * 1000) {
          throw new HttpError('auth/requires-recent-login');
        }
        c.set('user', found.user);
        c.set('sessionCreatedAt', found.createdAt);
        await next();
      };
    },

    /** Expires the browser's session cookies, after the server has already ended the sessions behind them. */
    clearCookies(c: Context): void {
      for (const { name, attributes } of [
        authCookies.sessionToken,
        authCookies.sessionData,
        authCookies.dontRememberToken,
      ]) {
        deleteCookie(c, name, {
          path: attributes.path ?? '/',
          secure: attributes.secure,
          httpOnly: true,
          sameSite: 'Lax',
        });
      }
    },
  };
}
