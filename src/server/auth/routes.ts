import { APIError } from 'better-auth/api';
import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/database';
import { readJson } from '../http/body';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { Auth } from './auth';
import type { DeviceCookies } from './device-cookie';
import { forwardCookies, type Sessions } from './sessions';
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

export interface AuthRouteParts {
  auth: Auth;
  db: Db;
  sessions: Sessions;
  throttle: LoginThrottle;
  devices: DeviceCookies;
  trustProxy: boolean;
}

export function authRoutes({ auth, db, sessions, throttle, devices, trustProxy }: AuthRouteParts) {
  return new Hono<AppEnv>()
    .post(endpoints.signUp.path, async (c) => {
      const { email, password } = await readJson(c, endpoints.signUp.body, {
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

    .post(endpoints.logIn.path, async (c) => {
      const { email, password } = await readJson(c, endpoints.logIn.body, {
        email: 'auth/invalid-email',
        password: 'auth/invalid-password',
      });
      const device = devices.verify(c, email);
      const attempt = await throttle.begin({ email, address: clientAddress(c, trustProxy), device, log: c.get('log') });
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

    .post(endpoints.logOut.path, async (c) => {
      const session = await sessions.find(c);
      if (session) await db.run((uow) => sessions.end(uow, { uid: session.user.uid, sessionId: session.id }));
      sessions.clearCookies(c);
      return c.body(null, 204);
    })

    .get(endpoints.session.path, sessions.require(), (c) => c.json({ user: c.get('session').user }));
}
