import { formatOrderNumber } from '../../shared/orders';
import type { Return, ReturnReceipt, ReturnRequest, ReturnState } from '../../shared/returns';
import { formatReturnNumber, returnReasonLabels } from '../../shared/returns';
import { shopTime } from '../books/shop-time';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import { yearlySequence } from '../db/schema';
import type { Outbox } from '../mail/outbox';
import { recipientOf } from '../orders/order-moves';
import { ordersTopic } from '../orders/order-topic';
import type { SettingsStore } from '../settings/settings-store';
import { returnedOf, type StockStore, unitsOf } from '../stock/stock-store';
import { orderLinesOf, orderReturnsOf, readReturns, returnAddressOf, returnableUntil } from './return-reading';

/** Why a return's step was refused: each is an error code `return/<reason>`. */
export type ReturnRefusal =
  | 'not-found'
  | 'order-not-found'
  | 'closed'
  | 'unknown-line'
  | 'line-taken'
  | 'unknown-size'
  | 'size-sold-out'
  | 'state-changed'
  | 'not-received'
  | 'wrong-lines'
  | 'refund-busy';

export type ReturnResult = { ok: true; return: Return } | { ok: false; reason: ReturnRefusal; state?: ReturnState };

/** A refusal thrown inside a unit of work, which rolls it back. */
export class Refused extends Error {
  constructor(
    readonly reason: ReturnRefusal,
    readonly state?: ReturnState,
  ) {
    super(reason);
  }
}

/** Runs `work` in a unit of work; a refusal rolls it back and is answered. */
export async function refusable(db: Db, work: (uow: UnitOfWork) => Promise<Return>): Promise<ReturnResult> {
  try {
    return { ok: true, return: await db.run(work) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason, state: error.state };
    throw error;
  }
}

export interface ReturnStoreParts {
  db: Db;
  stock: StockStore;
  outbox: Pick<Outbox, 'enqueue'>;
  settings: SettingsStore;
  clock?: () => number;
}

/** One return as the API gives it, read in `uow`. */
export async function readReturn(uow: UnitOfWork, number: string): Promise<Return> {
  const [read] = await readReturns(uow.trx, { numbers: [number] });
  if (!read) throw new Error(`The return ${number} vanished inside its own unit of work.`);
  return read;
}

/** A return's row, locked for its move: the state it is in, its order and the order's rider and payment. */
export async function returnHead(uow: UnitOfWork, number: string) {
  await uow.lock('return', number);
  const head = await uow.trx
    .selectFrom('return_request')
    .innerJoin('shop_order', 'shop_order.number', 'return_request.order_number')
    .select([
      'return_request.number',
      'return_request.order_number',
      'return_request.state',
      'return_request.refund_started_at',
      'return_request.refund_shipping',
      'return_request.refund_attempt',
      'shop_order.uid',
      'shop_order.email',
      'shop_order.payment_method',
      'shop_order.payment_id',
      'shop_order.placed_at',
    ])
    .where('return_request.number', '=', number)
    .executeTakeFirst();
  if (!head) throw new Refused('not-found');
  return { ...head, orderNumber: Number(head.order_number), state: head.state as ReturnState };
}

/**
 * Returns (docs/product.md §25, docs/decisions/0064-returns.md): a rider asks for lines of a shipped order back within
 * the settings' days, numbered RET-<year>-<n> without a gap, the exchange's sizes held at once; the owner marks it
 * received (each line restocked or not) or refuses it. Its refund and exchange are return-settling.ts's.
 */
export function createReturnStore({ db, stock, outbox, settings, clock = Date.now }: ReturnStoreParts) {
  async function ask(uid: string, orderNumber: number, request: ReturnRequest): Promise<ReturnResult> {
    try {
      return await refusable(db, async (uow) => {
        const order = await uow.trx
          .selectFrom('shop_order')
          .select(['number', 'status', 'uid', 'email'])
          .where('number', '=', orderNumber)
          .where('uid', '=', uid)
          .executeTakeFirst();
        if (!order) throw new Refused('order-not-found');
        const shop = await settings.current(uow);
        const now = clock();
        const until = await returnableUntil(uow.trx, orderNumber, order.status, shop.returns.days);
        if (until === null || now > until) throw new Refused('closed');
        const lines = await orderLinesOf(uow.trx, orderNumber);
        const chosen = request.lines.map((asked) => {
          const line = lines.find((l) => l.position === asked.line);
          if (!line) throw new Refused('unknown-line');
          return { asked, line };
        });
        // The exchange's sizes: each one the product comes in, held now as an order holds its sizes.
        const exchanges = chosen.filter(({ asked }) => asked.outcome === 'exchange');
        const keys = new Map<number, string>();
        for (const { asked, line } of exchanges) {
          const size = asked.size as string;
          const sizes = await stock.sizesOf(line.itemid, uow);
          if (!sizes.some((s) => s.size === size)) throw new Refused('unknown-size');
          const taken = await stock.take(uow, unitsOf([{ itemid: line.itemid, size }]));
          if (taken.short.length > 0) throw new Refused('size-sold-out');
          keys.set(asked.line, taken.keys.values().next().value as string);
        }
        const year = Number(shopTime(new Date(now).toISOString(), shop.format.timeZone).slice(0, 4));
        const number = formatReturnNumber(year, await uow.next(yearlySequence('return', year)));
        await uow.trx
          .insertInto('return_request')
          .values({
            number,
            order_number: orderNumber,
            uid,
            state: 'requested',
            requested_at: now,
            received_at: null,
            settled_at: null,
            refused_reason: null,
            refund_shipping: 0,
            refund_started_at: null,
            refund_problem: null,
            refund_attempt: 0,
            exchange_order: null,
          })
          .execute();
        await uow.trx
          .insertInto('return_line')
          .values(
            chosen.map(({ asked }) => ({
              return_number: number,
              order_number: orderNumber,
              position: asked.line,
              reason: asked.reason,
              outcome: asked.outcome,
              exchange_size: asked.size ?? null,
              exchange_size_key: keys.get(asked.line) ?? null,
              received_at: null,
              restocked: null,
              active: 1,
            })),
          )
          .execute();
        await outbox.enqueue(uow, 'return-requested', await recipientOf(uow, order), {
          number,
          order: formatOrderNumber(orderNumber),
          lines: chosen.map(({ asked, line }) => {
            const what = line.size ? `${line.name}, size ${line.size}` : line.name;
            const wants = asked.outcome === 'exchange' ? `exchange for size ${asked.size}` : 'refund';
            return `${what}: ${returnReasonLabels[asked.reason]}, ${wants}`;
          }),
          address: returnAddressOf(shop),
        });
        uow.publish(ordersTopic, { type: 'return', number: orderNumber, status: 'shipped', uid });
        return readReturn(uow, number);
      });
    } catch (error) {
      // Another request asked for one of these lines first: the index of active lines refused this one.
      if (isConstraintViolation(error, 'unique')) return { ok: false, reason: 'line-taken' };
      throw error;
    }
  }

  return {
    ask,

    /** A rider's order's returns and what may still be asked; undefined for an order not theirs. */
    async forOrder(orderNumber: number, uid: string) {
      const order = await db.kysely
        .selectFrom('shop_order')
        .select(['number', 'status'])
        .where('number', '=', orderNumber)
        .where('uid', '=', uid)
        .executeTakeFirst();
      if (!order) return undefined;
      const shop = await settings.current();
      return orderReturnsOf(db.kysely, { number: orderNumber, status: order.status }, shop, clock());
    },

    /** The owner's list: newest first, a page at a time, of one state or all. */
    async list({ state, before }: { state?: ReturnState; before?: string }, pageSize: number) {
      let query = db.kysely.selectFrom('return_request').select(['number', 'requested_at']);
      if (state) query = query.where('state', '=', state);
      if (before) {
        const at = await db.kysely
          .selectFrom('return_request')
          .select('requested_at')
          .where('number', '=', before)
          .executeTakeFirst();
        if (at) {
          const ms = Number(at.requested_at);
          query = query.where((eb) =>
            eb.or([eb('requested_at', '<', ms), eb.and([eb('requested_at', '=', ms), eb('number', '<', before)])]),
          );
        }
      }
      const rows = await query
        .orderBy('requested_at', 'desc')
        .orderBy('number', 'desc')
        .limit(pageSize + 1)
        .execute();
      const page = rows.slice(0, pageSize);
      const returns = await readReturns(db.kysely, { numbers: page.map((row) => row.number) });
      return { returns, older: rows.length > pageSize ? (page.at(-1)?.number ?? null) : null };
    },

    /** One return, for the owner. */
    async get(number: string): Promise<Return | undefined> {
      const [read] = await readReturns(db.kysely, { numbers: [number] });
      return read;
    },

    /** 'Mark received': every line of a requested return, each back on the shelf or not ('Damaged, do not restock'). */
    receive(number: string, { lines }: ReturnReceipt): Promise<ReturnResult> {
      return refusable(db, async (uow) => {
        const head = await returnHead(uow, number);
        if (head.state !== 'requested') throw new Refused('state-changed', head.state);
        const rows = await uow.trx
          .selectFrom('return_line')
          .select(['position'])
          .where('return_number', '=', number)
          .execute();
        const positions = new Set(rows.map((row) => Number(row.position)));
        if (lines.length !== positions.size || !lines.every((line) => positions.has(line.line))) {
          throw new Refused('wrong-lines');
        }
        const now = clock();
        const orderLines = await orderLinesOf(uow.trx, head.orderNumber);
        const back: { itemid: string; size: string; key: string | null }[] = [];
        for (const { line, restock } of lines) {
          await uow.trx
            .updateTable('return_line')
            .set({ received_at: now, restocked: restock ? 1 : 0 })
            .where('return_number', '=', number)
            .where('position', '=', line)
            .execute();
          const bought = orderLines.find((l) => l.position === line);
          if (restock && bought?.size) back.push({ itemid: bought.itemid, size: bought.size, key: bought.sizeKey });
        }
        await stock.giveBack(uow, returnedOf(back));
        await uow.trx
          .updateTable('return_request')
          .set({ state: 'received', received_at: now })
          .where('number', '=', number)
          .execute();
        uow.publish(ordersTopic, { type: 'return', number: head.orderNumber, status: 'shipped', uid: head.uid });
        return readReturn(uow, number);
      });
    },

    /** 'Refuse': a requested return closed with the reason the rider is e-mailed; its lines and held sizes are free. */
    refuse(number: string, reason: string): Promise<ReturnResult> {
      return refusable(db, async (uow) => {
        const head = await returnHead(uow, number);
        if (head.state !== 'requested') throw new Refused('state-changed', head.state);
        const held = await uow.trx
          .selectFrom('return_line')
          .innerJoin('order_line', (join) =>
            join
              .onRef('order_line.order_number', '=', 'return_line.order_number')
              .onRef('order_line.position', '=', 'return_line.position'),
          )
          .select(['order_line.itemid', 'return_line.exchange_size', 'return_line.exchange_size_key'])
          .where('return_line.return_number', '=', number)
          .where('return_line.outcome', '=', 'exchange')
          .execute();
        await stock.giveBack(
          uow,
          returnedOf(
            held.map((row) => ({ itemid: row.itemid, size: row.exchange_size ?? '', key: row.exchange_size_key })),
          ),
        );
        await uow.trx.updateTable('return_line').set({ active: 0 }).where('return_number', '=', number).execute();
        await uow.trx
          .updateTable('return_request')
          .set({ state: 'refused', settled_at: clock(), refused_reason: reason })
          .where('number', '=', number)
          .execute();
        await outbox.enqueue(uow, 'return-refused', await recipientOf(uow, head), {
          number,
          order: formatOrderNumber(head.orderNumber),
          reason,
        });
        uow.publish(ordersTopic, { type: 'return', number: head.orderNumber, status: 'shipped', uid: head.uid });
        return readReturn(uow, number);
      });
    },
  };
}

export type ReturnStore = ReturnType<typeof createReturnStore>;
