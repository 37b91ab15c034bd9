import { APIError } from 'better-auth/api';
import { Hono } from 'hono';
import type { ErrorCode } from '../../shared/errors';
import { credentialsSchema } from '../../shared/validation';
import type { AppEnv } from '../app-env';
import type { Store } from '../db/store';
import { readJson } from '../http/body';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { Auth } from './auth';
import { findSession, forwardCookies, requireSession } from './session';
import type { LoginThrottle } from './throttle';

/** Better Auth's error codes, in the `auth/...` names our API promises (DECISIONS.md section 1). */
const betterAuthCodes: Record<string, ErrorCode> = {
  INVALID_EMAIL: 'auth/invalid-email',
  INVALID_PASSWORD: 'auth/invalid-password',
  PASSWORD_TOO_SHORT: 'auth/weak-password',
  PASSWORD_TOO_LONG: 'auth/weak-password',
  USER_ALREADY_EXISTS: 'auth/email-already-in-use',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth/email-already-in-use',
  INVALID_EMAIL_OR_PASSWORD: 'auth/invalid-credential',
};

/** Turns a Better Auth refusal into our error; anything unexpected stays an error for the log. */
function translate(error: unknown): unknown {
  if (error instanceof APIError) {
    const code = betterAuthCodes[String(error.body?.code)];
    if (code) return new HttpError(code);
  }
  return error;
}

export function authRoutes(auth: Auth, store: Store, throttle: LoginThrottle, trustProxy: boolean) {
  return new Hono<AppEnv>()
    .post('/signup', async (c) => {
      const { email, password } = await readJson(c, credentialsSchema, {
        email: 'auth/invalid-email',
        password: 'auth/weak-password',
      });
      const { headers, response } = await auth.api
        .signUpEmail({ body: { email, password, name: '' }, headers: c.req.raw.headers, returnHeaders: true })
        .catch((error) => Promise.reject(translate(error)));
      forwardCookies(c, headers);
      return c.json({ user: { uid: response.user.id, email: response.user.email } }, 201);
    })

    .post('/login', async (c) => {
      const { email, password } = await readJson(c, credentialsSchema, {
        email: 'auth/invalid-email',
        password: 'auth/invalid-password',
      });
      const address = clientAddress(c, trustProxy);
      const wait = await throttle.retryAfter(email, address);
      if (wait > 0) throw new HttpError('auth/too-many-requests', undefined, { 'Retry-After': String(wait) });
      try {
        const { headers, response } = await auth.api.signInEmail({
          body: { email, password },
          headers: c.req.raw.headers,
          returnHeaders: true,
        });
        await throttle.succeeded(email);
        forwardCookies(c, headers);
        return c.json({ user: { uid: response.user.id, email: response.user.email } });
      } catch (error) {
        const translated = translate(error);
        if (translated instanceof HttpError && translated.code === 'auth/invalid-credential') {
          await throttle.failed(email, address);
        }
        throw translated;
      }
    })

    .post('/logout', async (c) => {
      const found = await findSession(auth, c);
      if (found) {
        const { headers } = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
        forwardCookies(c, headers);
        await store.accounts.sessionsChanged(found.user.id);
      }
      return c.body(null, 204);
    })

    .get('/session', requireSession(auth), (c) => c.json({ user: c.get('user') }));
}
