import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { EmailConfirmations } from './email-confirmations';
import type { Sessions } from './sessions';
import type { LinkState } from './single-use-links';
import { type LoginThrottle, tooManyLinks, tooManyRequests } from './throttle';

const linkRefusals: Record<Exclude<LinkState, 'valid'>, ErrorCode> = {
  invalid: 'auth/confirm-link-invalid',
  expired: 'auth/confirm-link-expired',
  used: 'auth/confirm-link-used',
};

export interface ConfirmationRouteParts {
  confirmations: EmailConfirmations;
  sessions: Sessions;
  throttle: LoginThrottle;
  trustProxy: boolean;
}

/** Confirming the address (docs/product.md §15): open the link, or ask for a new one. */
export function confirmationRoutes({ confirmations, sessions, throttle, trustProxy }: ConfirmationRouteParts) {
  return (
    new Hono<AppEnv>()
      // The link works in any browser, logged in or not (a phone's mail app): the token alone confirms the address
      // it was sent to. A browser logged in to that account stays logged in; the account's other sessions end.
      .post(endpoints.confirmEmail.path, async (c) => {
        const { token } = await readJson(c, endpoints.confirmEmail.body, { token: 'auth/confirm-link-invalid' });
        const { state, email } = await confirmations.confirm(token, await sessions.find(c));
        if (state !== 'valid' || email === undefined)
          throw new HttpError(linkRefusals[state === 'valid' ? 'invalid' : state]);
        return c.json({ email });
      })

      // Counted per account (by its address) and per client address, whatever comes of it.
      .post(endpoints.resendConfirmation.path, sessions.require(), async (c) => {
        const { user } = c.get('session');
        const address = clientAddress(c, trustProxy);
        const refused = await throttle.beginRequest('confirm', { email: user.email, address, log: c.get('log') });
        if (refused) throw tooManyRequests(refused.retryAfter, tooManyLinks);
        const outcome = await confirmations.resend(user.uid);
        if (outcome === 'gone') throw new HttpError('auth/unauthenticated');
        if (outcome === 'confirmed') throw new HttpError('auth/email-already-confirmed');
        return c.body(null, 204);
      })
  );
}
