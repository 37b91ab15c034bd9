/**
 * The shop's settings (docs/product.md §17, docs/decisions/0034-the-shops-settings.md): one document the owner
 * edits in the back office, in sections. Both sides use these rules: the owner's form and the server's check. The
 * server keeps the document in the database (src/server/settings/). A section added later (shipping, tax) has its
 * first values in a migration.
 *
 * Each section's schema is in a file beside this one: `settings-shop.ts` (the shop's details, how its amounts and days
 * read, who can see it), `settings-payment.ts` (payment methods, bank transfer), `settings-shipping.ts`,
 * `settings-tax.ts`, `settings-returns.ts` (returns and reports), on the text fields of `settings-fields.ts`. This module assembles the document, the owner's and
 * the public views of it, and is what callers import.
 */
import './zod-config';
import { z } from 'zod';
import { bankTransferSchema, offeredPaymentMethodsSchema } from './settings-payment';
import { reportsSettingsSchema, returnsSettingsSchema } from './settings-returns';
import { shippingSettingsSchema } from './settings-shipping';
import { shopAccessSchema, shopDetailsSchema, shopFormatSchema } from './settings-shop';
import { taxSettingsSchema } from './settings-tax';

export { settingsLimits } from './settings-fields';
export {
  type BankTransfer,
  bankTransferSchema,
  offeredPaymentMethodsSchema,
  type PaymentMethodId,
  paymentMethodIds,
} from './settings-payment';
export {
  type ReportsSettings,
  type ReturnsSettings,
  reportsSettingsSchema,
  returnsLimits,
  returnsSettingsSchema,
} from './settings-returns';
export {
  collectionMethodId,
  collectionSettingsSchema,
  type ShippingMethod,
  type ShippingPrice,
  type ShippingSettings,
  type ShippingZone,
  shippingLimits,
  shippingMethodSchema,
  shippingPriceSchema,
  shippingSettingsSchema,
  shippingZoneSchema,
  weightBandSchema,
  type ZonePlace,
  zonePlaceSchema,
} from './settings-shipping';
export {
  isCentCurrency,
  isLocale,
  isTimeZone,
  type OpenTo,
  openToChoices,
  openToLabels,
  type ShopAccess,
  type ShopDetails,
  type ShopFormat,
  shopAccessSchema,
  shopAddressSchema,
  shopDetailsSchema,
  shopFormatSchema,
} from './settings-shop';
export {
  percentOfRate,
  rateOfPercent,
  type TaxSettings,
  taxLimits,
  taxRateSchema,
  taxSettingsSchema,
} from './settings-tax';

/** The whole document, section by section. */
export const shopSettingsSchema = z.strictObject({
  shop: shopDetailsSchema,
  access: shopAccessSchema,
  format: shopFormatSchema,
  bankTransfer: bankTransferSchema,
  paymentMethods: offeredPaymentMethodsSchema,
  shipping: shippingSettingsSchema,
  tax: taxSettingsSchema,
  returns: returnsSettingsSchema,
  reports: reportsSettingsSchema,
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
 * What every page may show of the settings (the footer, the header, every amount and date, the order page's 'How to
 * pay', whether a visitor may browse): the shop's details, who can see it, how its amounts and days read, and its bank
 * account, which every rider who orders by transfer is shown anyway.
 */
export const publicShopSchema = shopSettingsSchema.pick({ shop: true, access: true, format: true, bankTransfer: true });
export type PublicShop = z.infer<typeof publicShopSchema>;

export function publicShopOf({ shop, access, format, bankTransfer }: PublicShop): PublicShop {
  return { shop, access, format, bankTransfer };
}
