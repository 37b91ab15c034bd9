import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { HttpError } from '../http/errors';
import { type Auth, recentLoginSeconds } from './auth';

/** Copies the cookies Better Auth wants set (a new or refreshed session, or a cleared one) onto our response. */
export function forwardCookies(c: Context, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
}

/** Looks up the session of the request's cookie; null when there is none or it has ended. */
export async function findSession(auth: Auth, c: Context) {
  const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
  forwardCookies(c, headers);
  return response;
}

/** Lets the request through only with a live session; `recent` also demands a log-in within 5 minutes. */
export function requireSession(auth: Auth, options: { recent?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const found = await findSession(auth, c);
    if (!found) throw new HttpError('auth/unauthenticated');
    const createdAt = new Date(found.session.createdAt);
    if (options.recent && Date.now() - createdAt.getTime() > recentLoginSeconds * 1000) {
      throw new HttpError('auth/requires-recent-login');
    }
    c.set('user', { uid: found.user.id, email: found.user.email });
    c.set('sessionCreatedAt', createdAt);
    await next();
  };
}

/** Expires the browser's session cookies, after the server has already ended the sessions behind them. */
export async function clearSessionCookies(auth: Auth, c: Context): Promise<void> {
  const { authCookies } = await auth.$context;
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
}
