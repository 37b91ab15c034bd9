import type { Db, UnitOfWork } from '../db/database';
import type { Outbox } from '../mail/outbox';
import { type Session, type Sessions, sessionsTopic } from './sessions';
import { hashOfToken, keepSpentLinksMs, type LinkState, newLinkToken, stateOfLink } from './single-use-links';

/** A confirmation link works this long (docs/product.md §15). */
export const confirmationLinkLifetimeMs = 24 * 60 * 60 * 1000;

export type EmailConfirmations = ReturnType<typeof createEmailConfirmations>;

/**
 * Confirming the address (docs/product.md §15, docs/decisions/0025-confirmed-addresses.md): a single-use link valid
 * for 24 hours, e-mailed through the outbox in the unit of work that makes it. Opening it marks the account's address
 * confirmed (Better Auth's `user.emailVerified`), ends every other session of the account and spends every open link
 * of the account, in one unit; every server then forgets the account's cached sessions and its open pages are told
 * (`changed` on the sessions topic, `ended` for the sessions that ended).
 */
export function createEmailConfirmations({ db, outbox, sessions }: { db: Db; outbox: Outbox; sessions: Sessions }) {
  async function spendAll(uow: UnitOfWork, uid: string): Promise<void> {
    await uow.trx
      .updateTable('email_confirmation')
      .set({ used_at: Date.now() })
      .where('uid', '=', uid)
      .where('used_at', 'is', null)
      .execute();
  }

  return {
    /**
     * As part of `uow`: marks the address `email` of `uid` unconfirmed, spends the links sent before (to an old
     * address, say) and e-mails a new one. Sign-up and a change of address call it.
     */
    async require(uow: UnitOfWork, uid: string, email: string): Promise<void> {
      await uow.trx
        .updateTable('user')
        .set({ emailVerified: db.flag(false) })
        .where('id', '=', uid)
        .execute();
      await spendAll(uow, uid);
      await this.send(uow, uid, email);
      uow.publish(sessionsTopic, { type: 'changed', uid });
    },

    /** As part of `uow`: e-mails a new link to `email`, the account's address now; links sent before still work. */
    async send(uow: UnitOfWork, uid: string, email: string): Promise<void> {
      const now = Date.now();
      await uow.trx
        .deleteFrom('email_confirmation')
        .where('expires_at', '<', now - keepSpentLinksMs)
        .execute();
      const token = newLinkToken();
      await uow.trx
        .insertInto('email_confirmation')
        .values({
          token_hash: hashOfToken(token),
          uid,
          email,
          created_at: now,
          expires_at: now + confirmationLinkLifetimeMs,
          used_at: null,
        })
        .execute();
      await outbox.enqueue(uow, 'confirm-email', email, { token });
    },

    /**
     * 'Send it again': a new link to the account's address, unless it is confirmed already (`confirmed`) or the
     * account is gone (`gone`).
     */
    async resend(uid: string): Promise<'sent' | 'confirmed' | 'gone'> {
      return db.run(async (uow) => {
        const user = await uow.trx
          .selectFrom('user')
          .select(['email', 'emailVerified'])
          .where('id', '=', uid)
          .executeTakeFirst();
        if (!user) return 'gone';
        if (user.emailVerified) return 'confirmed';
        await this.send(uow, uid, user.email);
        return 'sent';
      });
    },

    /**
     * Opens the link `token` (in the browser of `opener`'s session, if it has one): confirms the address it was sent to
     * if that is still the account's, and spends every open link of the account. Turning the address from unconfirmed
     * to confirmed also ends every session of the account but the opener's: until now, whoever knew the password
     * could be logged in, and the owner of the address may not be that person
     * (docs/decisions/0030-proof-of-the-address.md). Two uses of one link at once: one after the other, and the
     * second finds it used.
     */
    async confirm(token: string, opener: Session | null): Promise<{ state: LinkState; email?: string }> {
      const hash = hashOfToken(token);
      return db.run(async (uow) => {
        await uow.lock('email-confirmation', hash);
        const row = await uow.trx
          .selectFrom('email_confirmation')
          .select(['uid', 'email', 'expires_at', 'used_at'])
          .where('token_hash', '=', hash)
          .executeTakeFirst();
        const state = stateOfLink(row, Date.now());
        if (state !== 'valid' || !row) return { state };
        // Only while the account's address is still the one the link was sent to, checked by the update itself: a change
        // of address committed while this waited for the row (PostgreSQL re-reads it then) leaves nothing confirmed.
        const turned = await uow.trx
          .updateTable('user')
          .set({ emailVerified: db.flag(true) })
          .where('id', '=', row.uid)
          .where('email', '=', row.email)
          .where('emailVerified', '=', db.flag(false))
          .executeTakeFirst();
        if (Number(turned.numUpdatedRows) > 0) {
          const except = opener?.user.uid === row.uid ? opener.id : undefined;
          await sessions.end(uow, { uid: row.uid, except });
        } else {
          // Another of the account's links, opened at the same moment, confirmed it first: nothing more to end.
          const already = await uow.trx
            .selectFrom('user')
            .select('id')
            .where('id', '=', row.uid)
            .where('email', '=', row.email)
            .executeTakeFirst();
          if (!already) return { state: 'invalid' };
        }
        await spendAll(uow, row.uid);
        uow.publish(sessionsTopic, { type: 'changed', uid: row.uid });
        return { state, email: row.email };
      });
    },
  };
}
