import type { DeviceCookies } from '../auth/device-cookie';
import type { Sessions } from '../auth/sessions';
import type { LoginThrottle } from '../auth/throttle';
import type { CartStore } from '../cart/cart-store';
import type { Db } from '../db/database';
import { isConstraintViolation } from '../db/errors';

export interface AccountParts {
  db: Db;
  sessions: Sessions;
  devices: DeviceCookies;
  cart: CartStore;
  throttle: LoginThrottle;
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * A rider's own changes to the account. Each is one unit of work, and each ends every session and every
 * device cookie of the user: a changed credential leaves no device signed in or trusted (docs/product.md §4).
 */
export function createAccounts({ db, sessions, devices, cart, throttle }: AccountParts) {
  return {
    /** Gives the user a new e-mail address, unless another account has it. */
    async changeEmail(uid: string, email: string): Promise<'changed' | 'taken'> {
      const normalized = email.toLowerCase();
      try {
        return await db.run(async (uow) => {
          const other = await uow.trx
            .selectFrom('user')
            .select('id')
            .where('email', '=', normalized)
            .where('id', '!=', uid)
            .executeTakeFirst();
          if (other) return 'taken';
          await uow.trx
            .updateTable('user')
            .set({ email: normalized, updatedAt: db.timestamp(new Date()) })
            .where('id', '=', uid)
            .execute();
          await sessions.end(uow, { uid });
          await devices.revokeAll(uow, uid);
          return 'changed';
        });
      } catch (error) {
        // Another account took the address between the check and the update.
        if (isConstraintViolation(error, 'unique')) return 'taken';
        throw error;
      }
    },

    /** Stores a new password hash for the user's e-mail-and-password log-in. */
    async changePassword(uid: string, passwordHash: string): Promise<void> {
      await db.run(async (uow) => {
        await uow.trx
          .updateTable('account')
          .set({ password: passwordHash, updatedAt: db.timestamp(new Date()) })
          .where('userId', '=', uid)
          .where('providerId', '=', 'credential')
          .execute();
        await sessions.end(uow, { uid });
        await devices.revokeAll(uow, uid);
      });
    },

    /** Removes the user, their sessions, log-ins, cart and counters, in one transaction (device cookies die with the user). */
    async delete(uid: string): Promise<void> {
      await db.run(async (uow) => {
        const user = await uow.trx.selectFrom('user').select('email').where('id', '=', uid).executeTakeFirst();
        await cart.empty(uow, uid);
        await sessions.end(uow, { uid });
        await uow.trx.deleteFrom('account').where('userId', '=', uid).execute();
        if (user) await throttle.forget(uow, user.email);
        await uow.trx.deleteFrom('user').where('id', '=', uid).execute();
      });
    },
  };
}
