import type { Db, UnitOfWork } from '../db/database';

/**
 * Better Auth's passkey rows, where our own units of work touch them: what proves control of the address (a password
 * reset by e-mail) removes them all, and a passkey stored for a session that has ended meanwhile is removed again
 * (docs/SECURITY.md, "Taking over an account before its owner signs up"). Both take the account's `passkeys` lock, so
 * on PostgreSQL a reset and the check after an addition run one after the other.
 */
export const passkeyRows = {
  /** As part of `uow`: removes every passkey of `uid`. */
  async removeAll(uow: UnitOfWork, uid: string): Promise<void> {
    await uow.lock('passkeys', uid);
    await uow.trx.deleteFrom('passkey').where('userId', '=', uid).execute();
  },

  /**
   * Called once the plugin has stored the passkey `id` for the session `sessionId` of `uid`: keeps it only if that
   * session still lives (a reset or a change of address that committed in between ended it), and says whether it did.
   */
  async keepIfSessionLives(db: Db, { id, uid, sessionId }: { id: string; uid: string; sessionId: string }) {
    return db.run(async (uow) => {
      await uow.lock('passkeys', uid);
      const session = await uow.trx.selectFrom('session').select('id').where('id', '=', sessionId).executeTakeFirst();
      if (session) return true;
      await uow.trx.deleteFrom('passkey').where('id', '=', id).execute();
      return false;
    });
  },
};
