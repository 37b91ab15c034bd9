import { type Context, Hono } from 'hono';
import { newEmailSchema, newPasswordSchema } from '../../shared/validation';
import type { AppEnv } from '../app-env';
import type { Auth } from '../auth/auth';
import type { DeviceCookies } from '../auth/device-cookie';
import type { Sessions } from '../auth/session';
import { isConstraintViolation } from '../db/errors';
import type { Store } from '../db/store';
import { readJson } from '../http/body';
import { HttpError } from '../http/errors';

/** E-mail, password and deletion: each needs a recent log-in, and each ends every session of the user. */
export function accountRoutes(auth: Auth, sessions: Sessions, store: Store, devices: DeviceCookies) {
  async function endSessions(c: Context, uid: string) {
    const { internalAdapter } = await auth.$context;
    await internalAdapter.deleteUserSessions(uid);
    await store.accounts.sessionsChanged(uid);
    sessions.clearCookies(c);
  }

  return new Hono<AppEnv>()
    .use(sessions.require({ recent: true }))

    .put('/email', async (c) => {
      const { email } = await readJson(c, newEmailSchema, { email: 'auth/invalid-email' });
      const { uid } = c.get('user');
      const { internalAdapter } = await auth.$context;
      const normalized = email.toLowerCase();
      const owner = await internalAdapter.findUserByEmail(normalized);
      if (owner && owner.user.id !== uid) throw new HttpError('auth/email-already-in-use');
      try {
        await internalAdapter.updateUser(uid, { email: normalized });
      } catch (error) {
        if (isConstraintViolation(error, 'unique')) throw new HttpError('auth/email-already-in-use');
        throw error;
      }
      await endSessions(c, uid);
      return c.body(null, 204);
    })

    .put('/password', async (c) => {
      const { password } = await readJson(c, newPasswordSchema, { password: 'auth/weak-password' });
      const { uid } = c.get('user');
      const context = await auth.$context;
      await context.internalAdapter.updatePassword(uid, await context.password.hash(password));
      await endSessions(c, uid);
      return c.body(null, 204);
    })

    .delete('/', async (c) => {
      await store.accounts.delete(c.get('user').uid);
      sessions.clearCookies(c);
      devices.forget(c);
      return c.body(null, 204);
    });
}
