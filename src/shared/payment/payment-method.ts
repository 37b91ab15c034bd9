import type { Delivery } from '../delivery';
import { formatCents } from '../money';
import type { OrderMoney } from '../pricing';
import type { PublicShop, ShopFormat } from '../settings';

/** What the rider must do to pay for one order, shown after ordering and sent in the confirmation e-mail. */
export interface HowToPay {
  /** One or two sentences. */
  intro: string;
  /** Labelled facts, such as the bank details and the reference. */
  details: ReadonlyArray<readonly [label: string, value: string]>;
}

/**
 * A way to pay. Each is a module of its own (bank-transfer.ts, collection.ts), listed in payment-methods.ts;
 * a card provider would be one more module, and orders need not change.
 */
export interface PaymentMethod {
  id: string;
  /** Its name on the checkout form and the order. */
  label: string;
  /** Shown under the label at checkout. */
  summary(shop: PublicShop): string;
  /** The one delivery it goes with, if only one (Pay on collection: collection). */
  delivery?: Delivery;
  /**
   * From the shop's settings as they are when it is shown: the bank account, the yard's address and phone; the amount
   * in the order's own currency.
   */
  howToPay(order: { number: string; money: Pick<OrderMoney, 'currency' | 'totalCents'> }, shop: PublicShop): HowToPay;
}

/** An order's total as 'How to pay' says it: in the order's own currency, in the shop's locale. */
export function amountToPay(money: Pick<OrderMoney, 'currency' | 'totalCents'>, { locale }: ShopFormat): string {
  return formatCents(money.totalCents, { currency: money.currency, locale });
}
