import type { PaymentProblemPage } from '../../shared/admin';
import type { Db } from '../db/database';
import { pageCount, rowsOfPage } from '../db/paging';

/** A page of the webhook events that did not match an order, newest first, for the owner. */
export async function paymentProblems(db: Db, page: number): Promise<PaymentProblemPage> {
  const query = db.kysely.selectFrom('stripe_event').where('outcome', '=', 'problem');
  const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  const { limit, offset } = rowsOfPage(page);
  const rows = await query
    .selectAll()
    .orderBy('received_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    problems: rows.map((row) => ({
      id: row.id,
      type: row.type,
      receivedAt: new Date(Number(row.received_at)).toISOString(),
      orderRef: row.order_ref,
      amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
      currency: row.currency,
      problem: row.problem ?? '',
    })),
    page,
    pages: pageCount(Number(count)),
    total: Number(count),
  };
}
