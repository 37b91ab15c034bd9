import { APIError } from 'better-auth/api';
import { type Context, Hono } from 'hono';
import { endpoints, type SessionUser } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/database';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { Auth } from './auth';
import type { DeviceCookies } from './device-cookie';
import type { EmailConfirmations } from './email-confirmations';
import { finishLogIn, type TakeVisitorCart } from './log-in';
import { refusalsOf } from './refusals';
import type { Roles } from './roles';
import { forwardCookies, type Sessions, sessionUser } from './sessions';
import { type LoginThrottle, tooManyRequests } from './throttle';

/** Better Auth's error codes, in the `auth/...` names our API promises (docs/product.md §1, §6). */
const betterAuthCodes: Record<string, ErrorCode> = {
  INVALID_EMAIL: 'auth/invalid-email',
  INVALID_PASSWORD: 'auth/invalid-password',
  PASSWORD_TOO_SHORT: 'auth/weak-password',
  PASSWORD_TOO_LONG: 'auth/weak-password',
  USER_ALREADY_EXISTS: 'auth/email-already-in-use',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth/email-already-in-use',
  INVALID_EMAIL_OR_PASSWORD: 'auth/invalid-credential',
};

const translate = refusalsOf(betterAuthCodes);

export interface AuthRouteParts {
  auth: Auth;
  db: Db;
  sessions: Sessions;
  throttle: LoginThrottle;
  devices: DeviceCookies;
  roles: Roles;
  confirmations: EmailConfirmations;
  takeVisitorCart: TakeVisitorCart;
  trustProxy: boolean;
}

/**
 * Who is signed in, as GET /api/auth/session answers and the pages' HTML carries it (src/server/page-data.ts): the
 * role read now, not the session cache's (which a role change made by `npm run owner` in another process reaches only
 * when its entry expires, on SQLite), so that the pages show the back office as soon as it is granted.
 */
export async function sessionReply(roles: Roles, user: SessionUser) {
  return { user, role: await roles.of(user.uid) };
}

export function authRoutes({
  auth,
  db,
  sessions,
  throttle,
  devices,
  roles,
  confirmations,
  takeVisitorCart,
  trustProxy,
}: AuthRouteParts) {
  /** Better Auth's sign-up, whose failure when a parallel sign-up took the address first is that address's 409. */
  async function signUp(c: Context, email: string, password: string) {
    try {
      return await auth.api.signUpEmail({
        body: { email, password, name: '' },
        headers: c.req.raw.headers,
        returnHeaders: true,
      });
    } catch (error) {
      if (error instanceof APIError && error.body?.code === 'FAILED_TO_CREATE_USER') {
        const { internalAdapter } = await auth.$context;
        if (await internalAdapter.findUserByEmail(email.toLowerCase()))
          throw new HttpError('auth/email-already-in-use');
      }
      throw translate(error);
    }
  }

  return new Hono<AppEnv>()
    .post(endpoints.signUp.path, async (c) => {
      const { email, password } = await readJson(c, endpoints.signUp.body, {
        email: 'auth/invalid-email',
        password: 'auth/weak-password',
      });
      const address = clientAddress(c, trustProxy);
      const refused = await throttle.beginRequest('signup', { email, address, log: c.get('log') });
      if (refused) throw tooManyRequests(refused.retryAfter);
      const { headers, response } = await signUp(c, email, password);
      if (response.token) await sessions.started(c, response.token);
      forwardCookies(c, headers);
      await devices.issue(c, response.user.id);
      await takeVisitorCart(c, response.user.id);
      // The rider is logged in at once; the link that confirms the address goes out through the outbox (§15).
      await db.run((uow) => confirmations.send(uow, response.user.id, response.user.email));
      return c.json({ user: sessionUser(response.user), role: 'rider' }, 201);
    })

    .post(endpoints.logIn.path, async (c) => {
      const { email, password } = await readJson(c, endpoints.logIn.body, {
        email: 'auth/invalid-email',
        password: 'auth/invalid-password',
      });
      const device = await devices.verify(c, email);
      const address = clientAddress(c, trustProxy);
      const attempt = await throttle.begin({ email, address, device: device?.id, log: c.get('log') });
      if (!attempt.allowed) throw tooManyRequests(attempt.retryAfter);
      const { headers, response } = await auth.api
        .signInEmail({ body: { email, password }, headers: c.req.raw.headers, returnHeaders: true })
        .catch((error) => Promise.reject(translate(error)));
      await attempt.succeeded();
      return finishLogIn(
        c,
        { sessions, devices, roles, takeVisitorCart },
        { headers, token: response.token, user: response.user, device },
      );
    })

    .post(endpoints.logOut.path, async (c) => {
      const session = await sessions.find(c);
      if (session) await db.run((uow) => sessions.end(uow, { uid: session.user.uid, only: [session.id] }));
      sessions.clearCookies(c);
      return c.body(null, 204);
    })

    .get(endpoints.session.path, sessions.require(), async (c) =>
      c.json(await sessionReply(roles, c.get('session').user)),
    );
}
