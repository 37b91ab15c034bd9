import { hashOfToken, keepSpentLinksMs, type LinkState, newLinkToken, stateOfLink } from '../auth/single-use-links';
import type { Db, UnitOfWork } from '../db/database';
import type { Outbox } from '../mail/outbox';
import type { Accounts } from './accounts';

/** A reset link works this long (docs/product.md §10). */
export const resetLinkLifetimeMs = 60 * 60 * 1000;
/** The step every change of a credential takes (src/server/account/accounts.ts): no open link outlives it. */
export const resetLinks = {
  async spendAll(uow: UnitOfWork, uid: string): Promise<void> {
    await uow.trx
      .updateTable('password_reset')
      .set({ used_at: Date.now() })
      .where('uid', '=', uid)
      .where('used_at', 'is', null)
      .execute();
  },
};
export type ResetLinks = typeof resetLinks;

export type PasswordResets = ReturnType<typeof createPasswordResets>;

/**
 * Password reset (docs/product.md §10): a single-use link valid for an hour, e-mailed in the unit of work that makes
 * it; using it sets the password, ends every session and device cookie, removes every passkey and sends the notice, in
 * one more unit. See docs/decisions/0017-password-reset.md and 0030-proof-of-the-address.md.
 */
export function createPasswordResets({ db, accounts, outbox }: { db: Db; accounts: Accounts; outbox: Outbox }) {
  async function find(executor: Db['kysely'], token: string) {
    return executor
      .selectFrom('password_reset')
      .select(['uid', 'expires_at', 'used_at'])
      .where('token_hash', '=', hashOfToken(token))
      .executeTakeFirst();
  }

  return {
    /** E-mails a new link to the account of `email`, if there is one; nothing tells whether there was. */
    async request(email: string): Promise<void> {
      const now = Date.now();
      await db.run(async (uow) => {
        await uow.trx
          .deleteFrom('password_reset')
          .where('expires_at', '<', now - keepSpentLinksMs)
          .execute();
        const user = await uow.trx
          .selectFrom('user')
          .select(['id', 'email'])
          .where('email', '=', email.toLowerCase())
          .executeTakeFirst();
        if (!user) return;
        const token = newLinkToken();
        await uow.trx
          .insertInto('password_reset')
          .values({
            token_hash: hashOfToken(token),
            uid: user.id,
            created_at: now,
            expires_at: now + resetLinkLifetimeMs,
            used_at: null,
          })
          .execute();
        await outbox.enqueue(uow, 'password-reset', user.email, { token });
      });
    },

    /** Whether `token` is a link that can still set a password. */
    async check(token: string): Promise<LinkState> {
      return stateOfLink(await find(db.kysely, token), Date.now());
    },

    /**
     * Sets the password `passwordHash` through the link `token`, if it is still good: `accounts.setPassword` spends
     * it with every other open link of the user, ends the sessions and device cookies, removes every passkey (the link
     * proves control of the address, so whatever someone else added to the account before goes) and sends the
     * notice.
     */
    async reset(token: string, passwordHash: string): Promise<LinkState> {
      return db.run(async (uow) => {
        // Two uses of one link at once: one after the other, and the second finds it used.
        await uow.lock('password-reset', hashOfToken(token));
        const row = await find(uow.trx, token);
        const state = stateOfLink(row, Date.now());
        if (state !== 'valid' || !row) return state;
        await accounts.setPassword(uow, row.uid, passwordHash, { byLink: true });
        return 'valid';
      });
    },
  };
}
