import type { Delivery } from '../delivery';
import type { PaymentMethodId } from '../settings';
import { bankTransfer } from './bank-transfer';
import { card } from './card';
import { collection } from './collection';
import type { PaymentMethod } from './payment-method';

/**
 * Why an order that costs nothing is paid as it is placed, in its history and on the checkout page (docs/product.md
 * §8): no payment is asked of anyone, whatever its method.
 */
export const nothingToPay = 'Nothing to pay';

/** Every payment method Piaffe has (`paymentMethodIds` of src/shared/settings.ts); the settings say which are offered. */
const allMethods = [bankTransfer, collection, card] as const satisfies readonly { id: PaymentMethodId }[];

/**
 * The methods of `ids`, in their order: the ones the server offers (GET /api/payment-methods), which are the settings'
 * less any that needs a set-up the server lacks (Card: Stripe's keys).
 */
export function methodsOf(ids: readonly string[]): PaymentMethod[] {
  return ids.flatMap((id) => allMethods.filter((m) => m.id === id));
}

/**
 * The delivery of an order that does not name one: the one its payment method goes with (collection for Pay on
 * collection), shipping otherwise.
 */
export function deliveryOf(paymentMethod: string, delivery?: Delivery): Delivery {
  return delivery ?? findPaymentMethod(paymentMethod)?.delivery ?? 'shipping';
}

/** A method by id, offered or not (an order placed before the settings changed keeps its method). */
export function findPaymentMethod(id: string): PaymentMethod | undefined {
  return allMethods.find((m) => m.id === id);
}
