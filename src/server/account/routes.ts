import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { AppEnv } from '../app-env';
import type { DeviceCookies } from '../auth/device-cookie';
import type { Sessions } from '../auth/sessions';
import { type LoginThrottle, tooManyLinks, tooManyRequests } from '../auth/throttle';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import { type LiveStreams, sseFrame } from '../live/live-streams';
import type { Accounts } from './accounts';

export interface AccountRouteParts {
  accounts: Accounts;
  sessions: Sessions;
  devices: DeviceCookies;
  streams: LiveStreams;
  throttle: LoginThrottle;
  trustProxy: boolean;
  hashPassword(password: string): Promise<string>;
}

/**
 * E-mail, password and deletion: each needs a recent log-in, and each ends every session of the user. And the account
 * stream, for the pages that follow no stream of their own: it carries only the session's events (`signed-out`,
 * `account`), which every live stream sends (live/live-streams.ts).
 */
export function accountRoutes(parts: AccountRouteParts) {
  const { accounts, sessions, devices, streams, throttle, trustProxy, hashPassword } = parts;
  const recent = sessions.require({ recent: true });
  return new Hono<AppEnv>()
    .get(endpoints.accountStream.path, sessions.require(), (c) =>
      streams.open(c, c.get('session'), () => ({ start: async () => sseFrame('ready') })),
    )

    .put(endpoints.changeEmail.path, recent, async (c) => {
      const { email } = await readJson(c, endpoints.changeEmail.body, { email: 'auth/invalid-email' });
      // The change e-mails a link to the new address: counted with 'Send it again', per address and per client.
      const address = clientAddress(c, trustProxy);
      const refused = await throttle.beginRequest('confirm', { email, address, log: c.get('log') });
      if (refused) throw tooManyRequests(refused.retryAfter, tooManyLinks);
      if ((await accounts.changeEmail(c.get('session').user.uid, email)) === 'taken') {
        throw new HttpError('auth/email-already-in-use');
      }
      sessions.clearCookies(c);
      return c.body(null, 204);
    })

    .put(endpoints.changePassword.path, recent, async (c) => {
      const { password } = await readJson(c, endpoints.changePassword.body, { password: 'auth/weak-password' });
      await accounts.changePassword(c.get('session').user.uid, await hashPassword(password));
      sessions.clearCookies(c);
      return c.body(null, 204);
    })

    .delete(endpoints.deleteAccount.path, recent, async (c) => {
      await accounts.delete(c.get('session').user.uid);
      sessions.clearCookies(c);
      devices.forget(c);
      return c.body(null, 204);
    });
}
