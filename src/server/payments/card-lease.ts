import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { Tables } from '../db/schema';

/** How long a server may talk to Stripe about one order's payment before another may take over. */
const leaseMs = 2 * 60_000;

/** No server holds the order's lease at `now`. */
export function leaseFree(now: number) {
  return (eb: ExpressionBuilder<Tables, 'shop_order'>) =>
    eb.or([eb('card_lease_until', 'is', null), eb('card_lease_until', '<', now)]);
}

export type CardLease = ReturnType<typeof createCardLease>;

/**
 * An order's lease on talking to Stripe (`shop_order.card_lease_until`): whatever talks to Stripe about an order
 * first takes it (a new session, closing the sessions before a cancel, a refund), so two clicks, two owners or two
 * servers' sweeps never act on one order's payment at once.
 */
export function createCardLease(db: Db) {
  /** Takes the order's lease, if no other server holds it. */
  async function take(number: number): Promise<boolean> {
    const now = Date.now();
    const taken = await db.kysely
      .updateTable('shop_order')
      .set({ card_lease_until: now + leaseMs })
      .where('number', '=', number)
      .where(leaseFree(now))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  async function release(number: number): Promise<void> {
    await db.kysely.updateTable('shop_order').set({ card_lease_until: null }).where('number', '=', number).execute();
  }

  return {
    take,
    release,

    /** Runs `work` holding the order's lease; `payment-busy` when another holds it. */
    async leased<T>(number: number, work: () => Promise<T>): Promise<T | { ok: false; reason: 'payment-busy' }> {
      if (!(await take(number))) return { ok: false, reason: 'payment-busy' };
      try {
        return await work();
      } finally {
        await release(number);
      }
    },
  };
}
