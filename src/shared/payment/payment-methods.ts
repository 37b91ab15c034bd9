import type { Delivery } from '../delivery';
import { settings } from '../settings';
import { bankTransfer } from './bank-transfer';
import { card } from './card';
import { collection } from './collection';
import type { PaymentMethod } from './payment-method';

/** Every payment method Piaffe has; settings.paymentMethods says which of them the shop offers. */
const allMethods = [bankTransfer, collection, card] as const;

export type PaymentMethodId = (typeof allMethods)[number]['id'];

/**
 * The methods the settings offer, in their order. The server offers a method that needs set-up (Card: Stripe's keys)
 * only once it has it; the browser asks the server which (GET /api/payment-methods).
 */
export const settingsMethods: readonly PaymentMethod[] = settings.paymentMethods.map((id) => {
  const method = allMethods.find((m) => m.id === id);
  if (!method) throw new Error(`settings.paymentMethods names "${id}", which is not a payment method.`);
  return method;
});

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
