import { settings } from '../settings';
import { bankTransfer } from './bank-transfer';
import { collection } from './collection';
import type { PaymentMethod } from './payment-method';

/** Every payment method Piaffe has; settings.paymentMethods says which of them the shop offers. */
const allMethods = [bankTransfer, collection] as const;

export type PaymentMethodId = (typeof allMethods)[number]['id'];

/** The methods offered at checkout, in the order of the settings. */
export const offeredMethods: readonly PaymentMethod[] = settings.paymentMethods.map((id) => {
  const method = allMethods.find((m) => m.id === id);
  if (!method) throw new Error(`settings.paymentMethods names "${id}", which is not a payment method.`);
  return method;
});

/** A method by id, offered or not (an order placed before the settings changed keeps its method). */
export function findPaymentMethod(id: string): PaymentMethod | undefined {
  return allMethods.find((m) => m.id === id);
}
