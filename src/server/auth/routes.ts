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
import type { DeviceCookies } from './device-cookie';
import { forwardCookies, type Sessions } from './session';
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

export function authRoutes(
  auth: Auth,
  sessions: Sessions,
  store: Store,
  throttle: LoginThrottle,
  devices: DeviceCookies,
  trustProxy: boolean,
) {
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
      devices.issue(c, response.user.email);
      return c.json({ user: { uid: response.user.id, email: response.user.email } }, 201);
    })

    .post('/login', async (c) => {
      const { email, password } = await readJson(c, credentialsSchema, {
        email: 'auth/invalid-email',
        password: 'auth/invalid-password',
      });
      const device = devices.verify(c, email);
      const attempt = await throttle.begin({ email, address: clientAddress(c, trustProxy), device });
      if (!attempt.allowed) {
        throw new HttpError('auth/too-many-requests', undefined, { 'Retry-After': String(attempt.retryAfter) });
      }
      const { headers, response } = await auth.api
        .signInEmail({ body: { email, password }, headers: c.req.raw.headers, returnHeaders: true })
        .catch((error) => Promise.reject(translate(error)));
      await attempt.succeeded();
      forwardCookies(c, headers);
      devices.issue(c, response.user.email, device);
      return c.json({ user: { uid: response.user.id, email: response.user.email } });
    })

    .post('/logout', async (c) => {
      const found = await sessions.find(c);
      if (found) {
        const { headers } = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
        forwardCookies(c, headers);
        await store.accounts.sessionsChanged(found.user.uid);
      }
      return c.body(null, 204);
    })

    .get('/session', sessions.require(), (c) => c.json({ user: c.get('user') }));
}
