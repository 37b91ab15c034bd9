import type { RunningServer } from '../../src/server/server';
import { parseOrderNumber } from '../../src/shared/orders';

export const dayMs = 24 * 60 * 60 * 1000;

/** The order `number` (`PF-10001`) as its row is keyed. */
function key(number: string): number {
  const n = parseOrderNumber(number);
  if (n === undefined) throw new Error(`not an order number: ${number}`);
  return n;
}

/**
 * Moves time `days` on for the orders `numbers` alone: their placing and their last day to pay (once reminded) go
 * that far into the past, so that the shop's sweep at the real `now` finds them as it would `days` later, and the
 * other tests' orders stay as they are.
 */
export async function age(server: RunningServer, numbers: readonly string[], days: number): Promise<void> {
  const ms = Math.round(days * dayMs);
  await server.db.kysely
    .updateTable('shop_order')
    .set((eb) => ({ placed_at: eb('placed_at', '-', ms), pay_by: eb('pay_by', '-', ms) }))
    .where('number', 'in', numbers.map(key))
    .execute();
}

/** The e-mails of `kind` about the order `number` in the outbox, oldest first: what the rider gets. */
export async function mailsAbout(server: RunningServer, kind: string, number: string) {
  const rows = await server.db.kysely
    .selectFrom('outbox')
    .select(['recipient', 'subject', 'text_body', 'html_body'])
    .where('kind', '=', kind)
    .orderBy('created_at')
    .execute();
  const about = new RegExp(`${number}(?![0-9])`);
  return rows.filter((row) => about.test(row.subject));
}

/** How many times the order `number` was moved to `status`, by its history's rows. */
export async function movesTo(server: RunningServer, number: string, status: string): Promise<number> {
  const rows = await server.db.kysely
    .selectFrom('order_event')
    .select('seq')
    .where('order_number', '=', key(number))
    .where('status', '=', status)
    .execute();
  return rows.length;
}
