import type { Db } from '../db/database';

/**
 * Deletes the passkey challenges whose time is up. Better Auth keeps each in `verification` for 5 minutes and deletes
 * one only when it is answered, so a log-in form that was opened and left behind leaves one. One statement, the same
 * on every server at once (src/server/housekeeping.ts); the number deleted.
 */
export async function deleteExpiredChallenges(db: Db, now: number): Promise<number> {
  const deleted = await db.kysely
    .deleteFrom('verification')
    .where('expiresAt', '<', db.timestamp(new Date(now)))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
