import type { CartStore } from '../cart/cart-store';
import type { Db } from '../db/database';
import type { DiscountStore } from '../discounts/discount-store';
import type { Outbox } from '../mail/outbox';
import type { SettingsStore } from '../settings/settings-store';
import type { StockStore } from '../stock/stock-store';
import { type BeforeCancel, createMoves } from './order-moves';
import { createPlacing } from './order-placing';
import { createOrderQueries } from './order-queries';
import { createReminders } from './order-reminders';

export type OrderStore = ReturnType<typeof createOrderStore>;

export interface OrderStoreParts {
  db: Db;
  cart: CartStore;
  stock: StockStore;
  outbox: Pick<Outbox, 'enqueue'>;
  discounts: DiscountStore;
  /** The shop's settings, as each unit reads them: shipping priced by their zones, an invoice's seller. */
  settings: SettingsStore;
  /** How long a card order waits for its payment (CARD_PAYMENT_MINUTES). */
  cardPaymentMs: number;
  /** By payment method's id: what comes before a cancel of its orders (a card's refund). */
  beforeCancel: ReadonlyMap<string, BeforeCancel>;
  /** The time orders are placed and moved at (Date.now; the demo data's fill sets its own). */
  clock?: () => number;
}

/**
 * Orders (docs/product.md §8): placed from the cart in one unit of work with the emptied cart, the change events
 * and the confirmation e-mail; moved from status to status by the rules of src/shared/orders.ts, each move kept in
 * the history and e-mailed; an unpaid bank-transfer order reminded once (docs/decisions/0049-unpaid-bank-transfers.md).
 * See docs/decisions/0015-orders.md.
 */
export function createOrderStore(parts: OrderStoreParts) {
  const moves = createMoves(parts);
  return {
    ...createPlacing({ ...parts, moveWithin: moves.moveWithin }),
    ...createOrderQueries(parts),
    ...moves,
    ...createReminders(parts),
  };
}
