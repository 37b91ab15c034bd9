import type { DeviceCookies } from '../auth/device-cookie';
import type { EmailConfirmations } from '../auth/email-confirmations';
import { passkeyRows } from '../auth/passkeys';
import type { Sessions } from '../auth/sessions';
import type { LoginThrottle } from '../auth/throttle';
import type { CartStore } from '../cart/cart-store';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import type { Outbox } from '../mail/outbox';

export interface AccountParts {
  db: Db;
  sessions: Sessions;
  devices: DeviceCookies;
  cart: CartStore;
  throttle: LoginThrottle;
  outbox: Outbox;
  /** Spends the open password-reset links of an account (`resetLinks` in password-resets.ts, which uses these accounts). */
  resetLinks: { spendAll(uow: UnitOfWork, uid: string): Promise<void> };
  confirmations: EmailConfirmations;
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * A rider's own changes to the account. Each is one unit of work, and each ends every session and every
 * device cookie of the user: a changed credential leaves no device signed in or trusted (docs/product.md §4).
 * A changed credential is told by e-mail, written in the same unit (docs/product.md §9).
 */
export function createAccounts(parts: AccountParts) {
  const { db, sessions, devices, cart, throttle, outbox, resetLinks, confirmations } = parts;
  /**
   * What every change of a credential does, as part of `uow`: ends every session, every device cookie and every
   * password-reset link of the user (a link sent to an old address, or asked for before a new password, must not
   * undo the change).
   */
  async function endCredentials(uow: UnitOfWork, uid: string): Promise<void> {
    await sessions.end(uow, { uid });
    await devices.revokeAll(uow, uid);
    await resetLinks.spendAll(uow, uid);
  }

  /**
   * Stores a new password hash, ends the user's credentials (above), and sends the notice, as part of `uow`. A reset
   * through an e-mailed link (`byLink`) proves control of the address, so whatever someone else may have added to the
   * account before goes too: every passkey is removed, and the notice says so (docs/decisions/0030-proof-of-the-address.md).
   */
  async function setPassword(uow: UnitOfWork, uid: string, passwordHash: string, { byLink }: { byLink: boolean }) {
    await uow.trx
      .updateTable('account')
      .set({ password: passwordHash, updatedAt: db.timestamp(new Date()) })
      .where('userId', '=', uid)
      .where('providerId', '=', 'credential')
      .execute();
    await endCredentials(uow, uid);
    if (byLink) await passkeyRows.removeAll(uow, uid);
    const user = await uow.trx.selectFrom('user').select('email').where('id', '=', uid).executeTakeFirst();
    if (user) await outbox.enqueue(uow, 'password-changed', user.email, { passkeysRemoved: byLink });
  }

  return {
    setPassword,

    /** Gives the user a new e-mail address, to be confirmed, unless another account has it. */
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
          const old = await uow.trx.selectFrom('user').select('email').where('id', '=', uid).executeTakeFirst();
          await uow.trx
            .updateTable('user')
            .set({ email: normalized, updatedAt: db.timestamp(new Date()) })
            .where('id', '=', uid)
            .execute();
          await endCredentials(uow, uid);
          if (old && old.email !== normalized) {
            // Told to the old address: if the change was not the rider's, that is where the rider still reads.
            await outbox.enqueue(uow, 'email-changed', old.email, {});
            // The new address orders nothing until it is confirmed (docs/product.md §15).
            await confirmations.require(uow, uid, normalized);
          }
          return 'changed';
        });
      } catch (error) {
        // Another account took the address between the check and the update.
        if (isConstraintViolation(error, 'unique')) return 'taken';
        throw error;
      }
    },

    /** Stores a new password hash for the user's e-mail-and-password log-in. */
    changePassword(uid: string, passwordHash: string): Promise<void> {
      return db.run((uow) => setPassword(uow, uid, passwordHash, { byLink: false }));
    },

    /**
     * Removes the user, their sessions, log-ins, cart, counters and the e-mails that carried links to the account, in
     * one transaction (device cookies, passkeys and unused links die with the user). Their orders stay, for the shop's books: the database detaches them (their `uid` becomes null).
     */
    async delete(uid: string): Promise<void> {
      await db.run(async (uow) => {
        // After any checkout or cart change of the user under way (PostgreSQL would otherwise deadlock them).
        await uow.lock('cart', uid);
        const user = await uow.trx.selectFrom('user').select('email').where('id', '=', uid).executeTakeFirst();
        await cart.empty(uow, { uid });
        await sessions.end(uow, { uid });
        await uow.trx.deleteFrom('account').where('userId', '=', uid).execute();
        if (user) {
          await throttle.forget(uow, user.email);
          await outbox.forgetLinksTo(uow, user.email);
        }
        await uow.trx.deleteFrom('user').where('id', '=', uid).execute();
      });
    },
  };
}
