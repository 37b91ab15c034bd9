import { brand } from '../../shared/brand';
import type { Actor, Order, OrderStatus } from '../../shared/orders';
import { canMove } from '../../shared/orders';
import type { Db, UnitOfWork } from '../db/database';
import type { DiscountStore } from '../discounts/discount-store';
import { issueDocuments } from '../invoices/invoicing';
import { legalDetailsOf } from '../invoices/legal-details';
import type { Outbox } from '../mail/outbox';
import type { SettingsStore } from '../settings/settings-store';
import { returnedOf, type StockStore } from '../stock/stock-store';
import { readOrder } from './order-mapping';
import { ordersTopic } from './order-topic';
import { lockRefunds, recordRefund, wholeRefundOf } from './refunds';

/** Whoever acts on an order: the rider it belongs to, an owner, or the shop itself (`uid` null, `email` a name). */
export interface ActingUser {
  uid: string | null;
  email: string;
  role: Actor;
}

/** The shop itself, when it moves an order of its own accord: one that costs nothing, or one not paid in time. */
export const shopActor: ActingUser = { uid: null, email: brand.software, role: 'shop' };

export type MoveResult =
  | { ok: true; order: Order }
  | { ok: false; reason: 'not-found' | 'invalid-transition' | 'status-changed'; status?: OrderStatus }
  /** A refund has been asked of the payment's provider: the order cannot ship. */
  | { ok: false; reason: 'busy' };

/** Why a payment method's step before a cancel did not cancel: its provider was busy, unreachable or refused. */
export type PaymentRefusal =
  /** Another request is talking to the provider about this order's payment. */
  | { ok: false; reason: 'payment-busy' }
  /** A payment is going through: the order waits for it. */
  | { ok: false; reason: 'payment-in-progress' }
  /** The provider cannot be reached (or the shop has no keys for it). */
  | { ok: false; reason: 'payments-unavailable' }
  /** The provider refused the refund (`detail`, its words): the order stays paid. */
  | { ok: false; reason: 'refund-failed'; detail: string };

export type CancelResult = MoveResult | PaymentRefusal;

/** What a move records of the payment at its provider, with the move. */
export interface PaymentFacts {
  paymentId?: string;
  refundId?: string;
}

/** An order about to be cancelled, as its payment method's step before the cancel sees it. */
export interface Cancelling {
  number: number;
  status: OrderStatus;
  paymentId: string | null;
  placedAt: number;
}

/**
 * What a payment method does before its order may be cancelled (closing what is open at its provider, a refund of
 * what was paid), around the cancel it is given, which it runs, or says why not. A method without one is cancelled
 * at once.
 */
export type BeforeCancel = (
  order: Cancelling,
  cancel: (facts?: PaymentFacts) => Promise<MoveResult>,
) => Promise<CancelResult>;

export interface MoveOptions {
  /** The owner's note (shipped) or the reason (cancelled). */
  note?: string;
  /** The status the actor saw. */
  from?: OrderStatus;
  /** What to keep of the payment at its provider with the move. */
  payment?: PaymentFacts;
}

/** A move just made: the order as it is now, who moved it and why, and whom the order was placed by. */
interface Move {
  number: number;
  /** The status it was moved from. */
  from: OrderStatus;
  to: OrderStatus;
  order: Order;
  actor: ActingUser;
  note: string;
  placedBy: { uid: string | null; email: string };
  /** When it was made (epoch ms). */
  at: number;
  /** The payment's refund at its provider that came with it, if any. */
  refundId: string | null;
}

/** A step that follows every move, inside its unit of work. */
type AfterMove = (uow: UnitOfWork, move: Move) => Promise<void>;

export interface MovesParts {
  db: Db;
  stock: StockStore;
  outbox: Pick<Outbox, 'enqueue'>;
  discounts: DiscountStore;
  /** The shop's settings: an invoice states the seller's details as the move's unit reads them. */
  settings: SettingsStore;
  cardPaymentMs: number;
  /** By payment method's id: what comes before a cancel of its orders (a card's refund). */
  beforeCancel: ReadonlyMap<string, BeforeCancel>;
  /** The time a move is made at, in its history and on its invoice (Date.now; the demo data's fill sets its own). */
  clock?: () => number;
}

/** Where e-mails about an order go: the account's address, or the one it was placed with once the account is gone. */
export async function recipientOf(uow: UnitOfWork, order: { uid: string | null; email: string }): Promise<string> {
  if (order.uid === null) return order.email;
  const user = await uow.trx.selectFrom('user').select('email').where('id', '=', order.uid).executeTakeFirst();
  return user?.email ?? order.email;
}

/**
 * Moving an order from status to status by the rules of src/shared/orders.ts: each move kept in the history, then
 * what follows it (the steps after a move, below), in one unit of work.
 */
export function createMoves(parts: MovesParts) {
  const { db, stock, outbox, discounts, settings, cardPaymentMs, beforeCancel, clock = Date.now } = parts;

  /** A cancelled order's sizes go back on the shelf. */
  async function giveBackStock(uow: UnitOfWork, { number, to }: Move): Promise<void> {
    if (to !== 'cancelled') return;
    const lines = await uow.trx
      .selectFrom('order_line')
      .select(['itemid', 'size', 'size_key'])
      .where('order_number', '=', number)
      .where('size', 'is not', null)
      .execute();
    const sized = lines.map(({ itemid, size, size_key }) => ({ itemid, size: size as string, key: size_key }));
    await stock.giveBack(uow, returnedOf(sized));
  }

  /** A cancelled order's discount code gets its use back (docs/decisions/0039-discount-codes.md). */
  async function giveBackDiscount(uow: UnitOfWork, { number, to }: Move): Promise<void> {
    if (to === 'cancelled') await discounts.giveBack(uow, number);
  }

  /**
   * A paid order cancelled is paid back whole: kept as the order's refund (docs/decisions/0064-returns.md), with its
   * credit note and the provider's refund, on the day of the cancel.
   */
  async function keepRefund(uow: UnitOfWork, { number, from, to, order, at, refundId }: Move): Promise<void> {
    if (to !== 'cancelled' || from !== 'paid') return;
    await lockRefunds(uow, number);
    await recordRefund(uow, {
      orderNumber: number,
      returnNumber: null,
      at,
      parts: wholeRefundOf(order.money),
      creditNote: order.creditNote ?? null,
      providerRefundId: refundId,
    });
  }

  /** The rider hears of every move but to placed. */
  async function tellRider(uow: UnitOfWork, { to, order, actor, note, placedBy }: Move): Promise<void> {
    const recipient = await recipientOf(uow, placedBy);
    if (to === 'paid') await outbox.enqueue(uow, 'order-paid', recipient, { order });
    else if (to === 'shipped') await outbox.enqueue(uow, 'order-shipped', recipient, { order, note });
    else if (to === 'cancelled')
      await outbox.enqueue(uow, 'order-cancelled', recipient, { order, note, by: actor.role });
  }

  /** What follows a move, in its unit of work, in order (after its invoice or credit note). */
  const afterMove: readonly AfterMove[] = [giveBackStock, giveBackDiscount, keepRefund, tellRider];

  async function moveWithin(
    uow: UnitOfWork,
    number: number,
    to: OrderStatus,
    actor: ActingUser,
    { note = '', from, payment: facts = {} }: MoveOptions = {},
  ): Promise<MoveResult> {
    let query = uow.trx
      .selectFrom('shop_order')
      .select(['uid', 'email', 'status', 'payment_method'])
      .where('number', '=', number);
    if (actor.role === 'rider') query = query.where('uid', '=', actor.uid);
    const row = await query.executeTakeFirst();
    if (!row) return { ok: false, reason: 'not-found' } as const;
    const status = row.status as OrderStatus;
    if (from !== undefined && from !== status) return { ok: false, reason: 'status-changed', status } as const;
    if (!canMove(status, to, actor.role, row.payment_method)) {
      return { ok: false, reason: 'invalid-transition', status } as const;
    }
    // Only from the status just read: of two moves at once, the second finds it changed and moves nothing.
    let update = uow.trx
      .updateTable('shop_order')
      .set({
        status: to,
        ...(facts.paymentId ? { payment_id: facts.paymentId } : {}),
        ...(facts.refundId ? { refund_id: facts.refundId } : {}),
      })
      .where('number', '=', number)
      .where('status', '=', status);
    // Not once a refund has been asked of the payment's provider (src/server/payments/card-refunds.ts).
    if (to === 'shipped') update = update.where('refund_started_at', 'is', null);
    const moved = await update.executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) {
      const now = await uow.trx
        .selectFrom('shop_order')
        .select('status')
        .where('number', '=', number)
        .executeTakeFirst();
      if (to === 'shipped' && now?.status === status) return { ok: false, reason: 'busy' } as const;
      // Another move won. An owner who named the status seen is told it changed; otherwise the move is judged
      // from the status now, as if it had come second (which it did).
      const reason = from === undefined ? 'invalid-transition' : 'status-changed';
      return { ok: false, reason, status: (now?.status ?? status) as OrderStatus } as const;
    }
    const at = clock();
    const { last } = await uow.trx
      .selectFrom('order_event')
      .select((eb) => eb.fn.max('seq').as('last'))
      .where('order_number', '=', number)
      .executeTakeFirstOrThrow();
    await uow.trx
      .insertInto('order_event')
      .values({
        order_number: number,
        seq: Number(last ?? 0) + 1,
        status: to,
        at,
        by_role: actor.role,
        by_uid: actor.uid,
        by_email: actor.email,
        note: note || null,
      })
      .execute();
    const read = await readOrder(uow.trx, number, { forOwner: actor.role === 'owner', cardPaymentMs });
    if (!read) throw new Error(`Order ${number} vanished inside the transaction that moved it.`);
    // Its invoice (paid) or credit note (an invoiced order cancelled), before the steps that tell of the move.
    const issuer = async () => {
      const shop = await settings.current(uow);
      return { seller: legalDetailsOf(shop), format: shop.format };
    };
    const order = { ...read, ...(await issueDocuments(uow, number, to, read, issuer, at)) };
    // Once only: of two moves at once, the second moved nothing above and never gets here.
    const move: Move = {
      number,
      from: status,
      to,
      order,
      actor,
      note,
      placedBy: row,
      at,
      refundId: facts.refundId ?? null,
    };
    for (const step of afterMove) await step(uow, move);
    uow.publish(ordersTopic, { type: 'moved', number, status: to, uid: row.uid });
    return { ok: true, order } as const;
  }

  /**
   * Moves an order to `to`, if the rules allow `actor` that move from its status now; `from`, when given, is the
   * status the actor saw, and a different one is refused (someone else moved it meanwhile). The move is kept in
   * the history and e-mailed to the rider, in one unit of work. A rider reaches only their own orders.
   */
  function move(number: number, to: OrderStatus, actor: ActingUser, options: MoveOptions = {}): Promise<MoveResult> {
    return db.run((uow) => moveWithin(uow, number, to, actor, options));
  }

  return {
    move,

    /**
     * Cancels an order: `move` to cancelled, after its payment method's step before a cancel (a card order's sessions
     * closed, its payment refunded), which runs only when the rules allow the move (whose order, the status seen,
     * the table of moves); a refused move is answered as `move` answers it, and nothing is asked of the provider.
     */
    async cancel(number: number, actor: ActingUser, options: MoveOptions = {}): Promise<CancelResult> {
      const row = await db.kysely
        .selectFrom('shop_order')
        .select(['uid', 'status', 'payment_method', 'payment_id', 'placed_at'])
        .where('number', '=', number)
        .executeTakeFirst();
      const allowed =
        row !== undefined &&
        (actor.role !== 'rider' || row.uid === actor.uid) &&
        (options.from === undefined || options.from === row.status) &&
        canMove(row.status as OrderStatus, 'cancelled', actor.role, row.payment_method);
      const first = allowed ? beforeCancel.get(row.payment_method) : undefined;
      if (!row || !first) return move(number, 'cancelled', actor, options);
      const status = row.status as OrderStatus;
      const order = { number, status, paymentId: row.payment_id, placedAt: Number(row.placed_at) };
      return first(order, (facts) => move(number, 'cancelled', actor, { ...options, from: status, payment: facts }));
    },

    /** `move`, inside a unit of work of the caller's (Stripe's webhook records its event in the same one). */
    moveWithin,
  };
}
