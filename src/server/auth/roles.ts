import type { Role } from '../../shared/roles';
import { topic } from '../db/change-feed';
import type { Db } from '../db/database';

/** A user's role changed: every server drops what its session cache holds for them. */
export const rolesTopic = topic<{ type: 'changed'; uid: string }>('roles');

export type Roles = ReturnType<typeof createRoles>;

/**
 * Who is an owner (docs/product.md §11): a row of `user_role` per owner; everyone else is a rider. Made and
 * ended from the command line (src/server/owner-cli.ts), never from the web.
 */
export function createRoles(db: Db) {
  async function userOf(email: string) {
    return db.kysely
      .selectFrom('user')
      .select(['id', 'email'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  return {
    /** The user's role, read from the database now. */
    async of(uid: string): Promise<Role> {
      const row = await db.kysely.selectFrom('user_role').select('role').where('uid', '=', uid).executeTakeFirst();
      return row?.role === 'owner' ? 'owner' : 'rider';
    },

    /** Makes the account of `email` an owner. */
    async grant(email: string): Promise<'granted' | 'already' | 'no-account'> {
      const user = await userOf(email);
      if (!user) return 'no-account';
      return db.run(async (uow) => {
        const added = await uow.trx
          .insertInto('user_role')
          .values({ uid: user.id, role: 'owner' })
          .onConflict((oc) => oc.column('uid').doNothing())
          .executeTakeFirst();
        if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return 'already';
        uow.publish(rolesTopic, { type: 'changed', uid: user.id });
        return 'granted';
      });
    },

    /** Makes the account of `email` a rider only; its next request to the back office is refused. */
    async revoke(email: string): Promise<'revoked' | 'not-owner' | 'no-account'> {
      const user = await userOf(email);
      if (!user) return 'no-account';
      return db.run(async (uow) => {
        const removed = await uow.trx.deleteFrom('user_role').where('uid', '=', user.id).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return 'not-owner';
        uow.publish(rolesTopic, { type: 'changed', uid: user.id });
        return 'revoked';
      });
    },

    /** The e-mail addresses of the owners, in order. */
    async owners(): Promise<string[]> {
      const rows = await db.kysely
        .selectFrom('user_role')
        .innerJoin('user', 'user.id', 'user_role.uid')
        .select('user.email')
        .where('user_role.role', '=', 'owner')
        .orderBy('user.email')
        .execute();
      return rows.map((row) => row.email);
    },
  };
}
