/**
 * The payment sections of the shop's settings (src/shared/settings.ts; docs/product.md §8, §17): the methods offered at
 * checkout and the bank account riders pay a transfer into.
 */
import './zod-config';
import { z } from 'zod';
import { required, settingsLimits } from './settings-fields';

/** The payment methods a shop may offer, by id (src/shared/payment/payment-methods.ts has each). */
export const paymentMethodIds = ['bank-transfer', 'collection', 'card'] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

/** The account riders pay a bank transfer into, how long they have, and what the shop does when they do not pay. */
export const bankTransferSchema = z.strictObject({
  payWithinDays: z
    .number({ error: 'Days to pay must be a whole number.' })
    .int('Days to pay must be a whole number.')
    .min(1, 'Days to pay must be at least 1.')
    .max(settingsLimits.payWithinDaysMax, `Days to pay must be at most ${settingsLimits.payWithinDaysMax}.`),
  accountName: required('Account name', settingsLimits.bankTextMax),
  bankName: required('Bank', settingsLimits.bankTextMax),
  routingNumber: required('Routing number', settingsLimits.bankTextMax),
  accountNumber: required('Account number', settingsLimits.bankTextMax),
  /**
   * On: an order still unpaid after the days to pay gets one reminder, and is cancelled by the shop when as many days
   * more have passed since (docs/product.md §8, docs/decisions/0049-unpaid-bank-transfers.md). Off: neither.
   */
  cancelUnpaid: z.boolean({ error: 'Say whether unpaid orders are cancelled.' }),
});
export type BankTransfer = z.infer<typeof bankTransferSchema>;

/** The methods offered at checkout, in this order ('card' only on a server with Stripe's keys). */
export const offeredPaymentMethodsSchema = z
  .array(z.enum(paymentMethodIds, { error: 'Choose payment methods from the list.' }))
  .min(1, 'Offer at least one payment method.')
  // Each once (the refine below), so no more than there are: a bound of its own for the body's largest size.
  .max(paymentMethodIds.length, 'Offer each payment method once.')
  .refine((ids) => new Set(ids).size === ids.length, 'Offer each payment method once.');
