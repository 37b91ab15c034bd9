import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { LinkState } from '../auth/single-use-links';
import { type LoginThrottle, tooManyRequests } from '../auth/throttle';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { PasswordResets } from './password-resets';

const linkRefusals: Record<Exclude<LinkState, 'valid'>, ErrorCode> = {
  invalid: 'auth/reset-link-invalid',
  expired: 'auth/reset-link-expired',
  used: 'auth/reset-link-used',
};

function refuseUnlessValid(state: LinkState): void {
  if (state !== 'valid') throw new HttpError(linkRefusals[state]);
}

export interface ResetRouteParts {
  resets: PasswordResets;
  throttle: LoginThrottle;
  hashPassword(password: string): Promise<string>;
  trustProxy: boolean;
}

/** Password reset (docs/product.md §10): ask for a link, check it, and set a new password with it. */
export function resetRoutes({ resets, throttle, hashPassword, trustProxy }: ResetRouteParts) {
  return new Hono<AppEnv>()
    .post(endpoints.requestPasswordReset.path, async (c) => {
      const { email } = await readJson(c, endpoints.requestPasswordReset.body, { email: 'auth/invalid-email' });
      // Counted alike for every address, so the limit does not tell whether an account exists either.
      const address = clientAddress(c, trustProxy);
      const refused = await throttle.beginRequest('reset', { email, address, log: c.get('log') });
      if (refused) throw tooManyRequests(refused.retryAfter);
      await resets.request(email);
      return c.body(null, 204);
    })

    .post(endpoints.checkResetLink.path, async (c) => {
      const { token } = await readJson(c, endpoints.checkResetLink.body, { token: 'auth/reset-link-invalid' });
      refuseUnlessValid(await resets.check(token));
      return c.body(null, 204);
    })

    .post(endpoints.resetPassword.path, async (c) => {
      const { token, password } = await readJson(c, endpoints.resetPassword.body, {
        token: 'auth/reset-link-invalid',
        password: 'auth/weak-password',
      });
      // A password is hashed (the costly part) only for a link that is good now; `reset` checks it again, atomically.
      refuseUnlessValid(await resets.check(token));
      refuseUnlessValid(await resets.reset(token, await hashPassword(password)));
      return c.body(null, 204);
    });
}
