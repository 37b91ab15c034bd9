/**
 * The shop's settings (docs/product.md §17, docs/decisions/0034-the-shops-settings.md): one document the owner
 * edits in the back office, in sections. Both sides use these rules: the owner's form and the server's check. The
 * server keeps the document in the database (src/server/settings/); the shop's tax (DECISIONS.md §19) will be one
 * more section here, with its own schema and its first values in a migration.
 */
import './zod-config';
import { z } from 'zod';
import { noControlCharacters } from './text';

/** The payment methods a shop may offer, by id (src/shared/payment/payment-methods.ts has each). */
export const paymentMethodIds = ['bank-transfer', 'collection', 'card'] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

/** Each field's name in messages and its longest value. */
export const settingsLimits = {
  nameMax: 80,
  legalNameMax: 120,
  addressMax: 200,
  phoneMax: 30,
  taxIdMax: 40,
  bankTextMax: 80,
  payWithinDaysMax: 60,
} as const;

/** Something to read: not only spaces and invisible marks. */
const visible = /[^\p{Z}\p{Cf}\s]/u;

function line(name: string, max: number) {
  return z
    .string({ error: `${name} must be text.` })
    .trim()
    .max(max, `${name} must be at most ${max} characters.`)
    .regex(noControlCharacters, `${name} must be on one line, without control characters.`);
}

function required(name: string, max: number) {
  return line(name, max)
    .min(1, `${name} is required.`)
    .refine((text) => visible.test(text), `${name} is required.`);
}

/** Who the shop is and how riders reach it: the header, the footer, every e-mail, the collection's details. */
export const shopDetailsSchema = z.strictObject({
  /** The name as shown: the header, page titles, e-mails. */
  name: required('Name', settingsLimits.nameMax),
  /** The name on invoices (DECISIONS.md §20). */
  legalName: required('Legal name', settingsLimits.legalNameMax),
  address: required('Address', settingsLimits.addressMax),
  phone: required('Phone', settingsLimits.phoneMax).regex(
    /^[0-9+()./ -]*$/,
    'Phone may have only digits, spaces and + ( ) - . /',
  ),
  email: z.email({ error: 'E-mail must be an address such as shop@example.com.' }).max(254),
  /** Optional: empty when the shop has none. */
  taxId: line('Tax id', settingsLimits.taxIdMax),
});
export type ShopDetails = z.infer<typeof shopDetailsSchema>;

/** The account riders pay a bank transfer into, and how long they have. */
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
});
export type BankTransfer = z.infer<typeof bankTransferSchema>;

/** The methods offered at checkout, in this order ('card' only on a server with Stripe's keys). */
export const offeredPaymentMethodsSchema = z
  .array(z.enum(paymentMethodIds, { error: 'Choose payment methods from the list.' }))
  .min(1, 'Offer at least one payment method.')
  .refine((ids) => new Set(ids).size === ids.length, 'Offer each payment method once.');

/** The whole document, section by section. */
export const shopSettingsSchema = z.strictObject({
  shop: shopDetailsSchema,
  bankTransfer: bankTransferSchema,
  paymentMethods: offeredPaymentMethodsSchema,
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;

/** The owner's form: the whole document and the version it was filled from (`settings/changed` if not the shop's). */
export const settingsEditSchema = shopSettingsSchema.extend({
  version: z.number({ error: 'version must be a number.' }).int().min(1),
});
export type SettingsEdit = z.infer<typeof settingsEditSchema>;

/** The settings as the owner's page reads them: the document and its version. */
export const versionedSettingsSchema = shopSettingsSchema.extend({ version: z.number().int() });
export type VersionedSettings = z.infer<typeof versionedSettingsSchema>;

/** One save of the settings, as the history lists it. */
export const settingsChangeSchema = z.object({ at: z.string(), by: z.string(), what: z.string() });
export type SettingsChange = z.infer<typeof settingsChangeSchema>;

/**
 * What every page may show of the settings (the footer, the header, the order page's 'How to pay'): the shop's
 * details and its bank account, which every rider who orders by transfer is shown anyway.
 */
export const publicShopSchema = shopSettingsSchema.pick({ shop: true, bankTransfer: true });
export type PublicShop = z.infer<typeof publicShopSchema>;

export function publicShopOf({ shop, bankTransfer }: ShopSettings): PublicShop {
  return { shop, bankTransfer };
}
