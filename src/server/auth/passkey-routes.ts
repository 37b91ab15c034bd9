import { APIError } from 'better-auth/api';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/database';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import { type Auth, rowIdPattern } from './auth';
import type { DeviceCookies } from './device-cookie';
import { finishLogIn, type TakeVisitorCart } from './log-in';
import { passkeyRows } from './passkeys';
import { refusalsOf } from './refusals';
import type { Roles } from './roles';
import { forwardCookies, type Sessions } from './sessions';
import { type LoginThrottle, tooManyRequests } from './throttle';

/**
 * Better Auth's passkey plugin's refusals, in the `passkey/...` names our API promises. The plugin answers a response
 * it could not verify (a forged one, one for another challenge or origin, garbage) with a 500 of its own: here it is
 * the client's fault it is. Its 401s become codes that do not sign the browser out.
 */
const passkeyCodes: Record<string, ErrorCode> = {
  FAILED_TO_VERIFY_REGISTRATION: 'passkey/invalid-response',
  AUTHENTICATION_FAILED: 'passkey/invalid-response',
  CHALLENGE_NOT_FOUND: 'passkey/challenge-expired',
  // The challenge in this browser's cookie was made for another account (logged out and in meanwhile).
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: 'passkey/challenge-expired',
  PASSKEY_NOT_FOUND: 'passkey/unknown',
  // Our `recent` check runs first; these answer only a session that ended or aged in between.
  UNAUTHORIZED: 'auth/unauthenticated',
  SESSION_REQUIRED: 'auth/unauthenticated',
  SESSION_NOT_FRESH: 'auth/requires-recent-login',
};

const translate = refusalsOf(passkeyCodes);

export interface PasskeyRouteParts {
  auth: Auth;
  db: Db;
  sessions: Sessions;
  devices: DeviceCookies;
  roles: Roles;
  throttle: LoginThrottle;
  takeVisitorCart: TakeVisitorCart;
  trustProxy: boolean;
}

/** What a browser asking too often for a passkey log-in is told, with when to ask again (Retry-After). */
const tooManyChallenges =
  'Too many passkey log-ins from your network. Please wait a few minutes, or log in with your password.';

/**
 * Only an account whose address is confirmed gets a passkey: until then, whoever signed up with the address may not be
 * its owner, and a passkey of theirs would outlive the owner's reset (docs/decisions/0030-proof-of-the-address.md).
 * The session says it: a change of address, the only way back to unconfirmed, ends every session of the account.
 */
const confirmed: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('session').user.emailConfirmed) throw new HttpError('passkey/email-not-confirmed');
  await next();
};

/**
 * Passkeys (docs/product.md §15, docs/decisions/0026-passkeys.md): adding one needs a recent log-in and a confirmed
 * address, listing and removing one a session; logging in with one makes a new session, as a password log-in does.
 * Better Auth's passkey plugin keeps the challenges and verifies the answers; the challenge of each ceremony rides in
 * its signed cookie.
 */
export function passkeyRoutes({
  auth,
  db,
  sessions,
  devices,
  roles,
  throttle,
  takeVisitorCart,
  trustProxy,
}: PasskeyRouteParts) {
  const recent = sessions.require({ recent: true });
  const signedIn = sessions.require();
  const fromBrowser = (c: Context) => ({ headers: c.req.raw.headers, returnHeaders: true as const });

  return (
    new Hono<AppEnv>()
      // Anonymous, and a row each: counted per client address before the row is written.
      .post(endpoints.passkeyLogInOptions.path, async (c) => {
        const address = clientAddress(c, trustProxy);
        const refused = await throttle.beginPasskeyChallenge({ address, log: c.get('log') });
        if (refused) throw tooManyRequests(refused.retryAfter, tooManyChallenges);
        const { headers, response } = await auth.api.generatePasskeyAuthenticationOptions(fromBrowser(c));
        forwardCookies(c, headers);
        return c.json(response);
      })

      .post(endpoints.passkeyLogIn.path, async (c) => {
        const body = await readJson(c, endpoints.passkeyLogIn.body, { response: 'passkey/invalid-response' });
        const { headers, response } = await auth.api
          .verifyPasskeyAuthentication({ ...fromBrowser(c), body })
          .catch((error) => Promise.reject(translate(error)));
        const { session, user } = response;
        const device = await devices.verify(c, user.email);
        return finishLogIn(
          c,
          { sessions, devices, roles, takeVisitorCart },
          { headers, token: session.token, user, device },
        );
      })

      .get(endpoints.passkeys.path, signedIn, async (c) => {
        const { headers, response } = await auth.api
          .listPasskeys(fromBrowser(c))
          .catch((error) => Promise.reject(translate(error)));
        forwardCookies(c, headers);
        const passkeys = response
          .map((passkey) => ({
            id: passkey.id,
            name: passkey.name ?? '',
            createdAt: new Date(passkey.createdAt).toISOString(),
          }))
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        return c.json({ passkeys });
      })

      // Our `recent` rule first, with our code: the plugin's own check (the same 5 minutes) then finds nothing to say.
      .post(endpoints.passkeyRegistrationOptions.path, recent, confirmed, async (c) => {
        const { headers, response } = await auth.api
          .generatePasskeyRegistrationOptions(fromBrowser(c))
          .catch((error) => Promise.reject(translate(error)));
        forwardCookies(c, headers);
        return c.json(response);
      })

      .post(endpoints.addPasskey.path, recent, confirmed, async (c) => {
        const { name, response } = await readJson(c, endpoints.addPasskey.body, {
          name: 'passkey/invalid-name',
          response: 'passkey/invalid-response',
        });
        const added = await auth.api
          .verifyPasskeyRegistration({ ...fromBrowser(c), body: { name, response } })
          .catch((error) => Promise.reject(translate(error)));
        const passkey = added.response;
        // A reset that committed while the plugin stored it ended this session: the passkey goes with it.
        const { id: sessionId, user } = c.get('session');
        if (!(await passkeyRows.keepIfSessionLives(db, { id: passkey.id, uid: user.uid, sessionId }))) {
          throw new HttpError('auth/unauthenticated');
        }
        forwardCookies(c, added.headers);
        return c.json({ passkey: { id: passkey.id, name, createdAt: new Date(passkey.createdAt).toISOString() } }, 201);
      })

      // Someone else's passkey is answered as one that does not exist: the answer tells nothing about other accounts.
      .delete(endpoints.removePasskey.path, signedIn, async (c) => {
        const id = c.req.param('id');
        if (!rowIdPattern.test(id)) throw new HttpError('passkey/not-found');
        const { headers } = await auth.api
          .deletePasskey({ ...fromBrowser(c), body: { id } })
          .catch((error) =>
            Promise.reject(
              error instanceof APIError && error.statusCode < 500 ? new HttpError('passkey/not-found') : error,
            ),
          );
        forwardCookies(c, headers);
        return c.body(null, 204);
      })
  );
}
