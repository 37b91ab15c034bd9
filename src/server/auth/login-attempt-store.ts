import type { Db, UnitOfWork } from '../db/database';

export type LoginAttemptStore = ReturnType<typeof createLoginAttemptStore>;

/** The `login_attempt` table: a counter per key (an e-mail, an address group, a device) and its window. */
export function createLoginAttemptStore(db: Db) {
  return {
    /**
     * Counts one attempt under `key` and returns the new count with its window's start, in one atomic step;
     * a window that started at or before `since` starts again at 1.
     */
    async hit(key: string, now: number, since: number): Promise<{ count: number; windowStartedAt: number }> {
      // One statement: the increment and the read of the new count are atomic on both databases, so
      // parallel attempts each see a different count and no more than the limit get through.
      const row = await db.kysely
        .insertInto('login_attempt')
        .values({ key, failures: 1, window_started_at: now })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => {
            const expired = eb('login_attempt.window_started_at', '<=', since);
            return {
              failures: eb
                .case()
                .when(expired)
                .then(1)
                .else(eb('login_attempt.failures', '+', 1))
                .end(),
              window_started_at: eb
                .case()
                .when(expired)
                .then(now)
                .else(eb.ref('login_attempt.window_started_at'))
                .end(),
            };
          }),
        )
        .returning(['failures', 'window_started_at'])
        .executeTakeFirstOrThrow();
      return { count: Number(row.failures), windowStartedAt: Number(row.window_started_at) };
    },

    /** Takes back one attempt counted under `key` (never below zero). */
    async giveBack(key: string): Promise<void> {
      await db.kysely
        .updateTable('login_attempt')
        .set((eb) => ({ failures: eb('failures', '-', 1) }))
        .where('key', '=', key)
        .where('failures', '>', 0)
        .execute();
    },

    /** Deletes the counters of `keys`, on their own or as part of `uow`. */
    async clear(keys: string[], uow?: UnitOfWork): Promise<void> {
      if (keys.length > 0) await (uow?.trx ?? db.kysely).deleteFrom('login_attempt').where('key', 'in', keys).execute();
    },

    /** Deletes every counter whose window started at or before `since`: they count for nothing any more. */
    async prune(since: number): Promise<void> {
      await db.kysely.deleteFrom('login_attempt').where('window_started_at', '<=', since).execute();
    },
  };
}
