import { bankTransfer, lastDayToPay } from '../../shared/payment/bank-transfer';
import { shopDays } from '../books/shop-time';
import type { Db } from '../db/database';
import { shopDay } from '../discounts/discount-store';
import { shopActor } from '../orders/order-moves';
import type { OrderStore } from '../orders/order-store';
import type { SettingsStore } from '../settings/settings-store';

const dayMs = 24 * 60 * 60 * 1000;

/** Orders each half of a round takes at once (the overdue, the late); the rest wait for the next round. */
const sweepBatch = 100;

/**
 * The last moment to pay that a reminder sent at `now` gives: the end of the shop's day `days` days later, so that
 * the rider has at least `days` whole days, and a day to pay is a day in the shop's time zone as the e-mail says it.
 */
export function payByOf(now: number, days: number, timeZone: string): number {
  const lastDay = shopDay(now + days * dayMs, timeZone);
  return shopDays(lastDay, lastDay, timeZone)[1];
}

export interface TransferSweepParts {
  db: Db;
  orders: OrderStore;
  settings: SettingsStore;
}

/**
 * The unpaid bank-transfer orders at `now` (docs/decisions/0049-unpaid-bank-transfers.md), while the settings'
 * 'Cancel unpaid orders' is on: each one placed 'Days to pay' ago and never reminded gets its one reminder, with
 * its last day to pay; each one whose last day has ended is cancelled by the shop with the order store's cancel (its
 * stock and its code's use back, the history's line, the rider's e-mail). An order is only ever cancelled after its
 * reminder, so one placed long before (an upgrade, the switch turned on again) is reminded first. Runs on every
 * server: the reminder's and the cancel's conditional updates let one of them act on each order. The number of
 * orders it reminded or cancelled.
 */
export function createTransferSweep({ db, orders, settings }: TransferSweepParts) {
  return async function sweep(now: number): Promise<number> {
    const { bankTransfer: bank, format } = await settings.current();
    if (!bank.cancelUnpaid) return 0;
    const unpaid = db.kysely
      .selectFrom('shop_order')
      .select(['number', 'pay_by'])
      .where('payment_method', '=', bankTransfer.id)
      .where('status', '=', 'placed')
      .orderBy('number')
      .limit(sweepBatch);
    let acted = 0;
    for (const { number, pay_by } of await unpaid.where('pay_by', '<=', now).execute()) {
      const lastDay = lastDayToPay(new Date(Number(pay_by)).toISOString(), format);
      const note = `Not paid by ${lastDay}, the last day to pay that our reminder gave.`;
      const cancelled = await orders.cancel(Number(number), shopActor, { note, from: 'placed' });
      if (cancelled.ok) acted += 1;
    }
    const late = await unpaid
      .where('pay_by', 'is', null)
      .where('placed_at', '<=', now - bank.payWithinDays * dayMs)
      .execute();
    const payBy = payByOf(now, bank.payWithinDays, format.timeZone);
    for (const { number } of late) if (await orders.remindToPay(Number(number), payBy)) acted += 1;
    return acted;
  };
}
