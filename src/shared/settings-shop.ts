/**
 * The shop's own sections of its settings (src/shared/settings.ts; docs/product.md §17, §23): who it is and where, how
 * its amounts and days read, and who can see it.
 */
import './zod-config';
import { z } from 'zod';
import { addressFields, countryCodePattern, postalCodePattern, type ShopAddress } from './address';
import { line, required, settingsLimits } from './settings-fields';

/**
 * Where the shop is (docs/product.md §17): the yard riders collect at, printed as one block (`shopAddressText`), and
 * the place an order collected there is taxed at (§19). The region is a subdivision's ISO 3166-2 code when the country
 * has subdivisions (the server checks it against the list, docs/decisions/0051-a-sale-at-the-yard.md), else text or
 * empty; the city and the postal code may be empty where a place has none.
 */
export const shopAddressSchema = z.strictObject({
  line1: required('Address line 1', addressFields.line1.max),
  line2: line('Address line 2', addressFields.line2.max),
  city: line('City', addressFields.city.max),
  region: line('State or region', addressFields.region.max),
  postalCode: line('Postal code', addressFields.postalCode.max).regex(
    postalCodePattern,
    'Postal code may have only letters, digits, spaces and hyphens.',
  ),
  country: z
    .string({ error: 'Choose a country from the list.' })
    .regex(countryCodePattern, 'Choose a country from the list.'),
}) satisfies z.ZodType<ShopAddress>;

/** Who the shop is and how riders reach it: the header, the footer, every e-mail, the collection's details. */
export const shopDetailsSchema = z.strictObject({
  /** The name as shown: the header, page titles, e-mails. */
  name: required('Name', settingsLimits.nameMax),
  /** The name on invoices (docs/product.md §20). */
  legalName: required('Legal name', settingsLimits.legalNameMax),
  address: shopAddressSchema,
  phone: required('Phone', settingsLimits.phoneMax).regex(
    /^[0-9+()./ -]*$/,
    'Phone may have only digits, spaces and + ( ) - . /',
  ),
  email: z.email({ error: 'E-mail must be an address such as shop@example.com.' }).max(254),
  /** Optional: empty when the shop has none. */
  taxId: line('Tax id', settingsLimits.taxIdMax),
});
export type ShopDetails = z.infer<typeof shopDetailsSchema>;

// ---------------------------------------------------------------------------------------------------------
// Money and time (docs/product.md §17, docs/decisions/0053-an-orders-money-as-one-value.md)

/**
 * Whether `code` is a currency an amount of the shop may be in: one that `Intl` knows, written with two decimals, since
 * amounts are kept in integer cents (docs/decisions/0005-money-in-integer-cents.md).
 */
export function isCentCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return format.resolvedOptions().maximumFractionDigits === 2 && Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return false;
  }
}

/** Whether `tag` is a language tag as `Intl` writes it ('en-US', 'de-DE') and can write amounts and dates in. */
export function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag)[0] === tag && Intl.NumberFormat.supportedLocalesOf([tag]).length === 1;
  } catch {
    return false;
  }
}

/**
 * Whether `zone` is a time zone of the IANA database that `Intl` knows ('America/New_York', 'Asia/Kolkata'), by any of
 * its names: a browser and the server may name one zone differently ('Asia/Calcutta'), and either is kept as given.
 */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * How the shop's amounts and days read: the currency its prices are in (an order keeps the one it was priced in), the
 * locale that writes amounts and dates, and the time zone its days are in (the export's days, invoices' years, the
 * last day to pay). A new shop has USD, en-US and America/New_York, as the code had them (migration 0036).
 */
export const shopFormatSchema = z.strictObject({
  currency: z
    .string({ error: 'Choose a currency from the list.' })
    .max(3, 'Choose a currency from the list.')
    .refine(isCentCurrency, 'Choose a currency from the list.'),
  locale: z
    .string({ error: 'Language and region must be a tag such as en-US.' })
    .max(35, 'Language and region must be a tag such as en-US.')
    .refine(isLocale, 'Language and region must be a tag such as en-US or de-DE.'),
  timeZone: z
    .string({ error: 'Choose a time zone from the list.' })
    .max(64, 'Choose a time zone from the list.')
    .refine(isTimeZone, 'Choose a time zone from the list.'),
});
export type ShopFormat = z.infer<typeof shopFormatSchema>;

/**
 * Who can see the shop (docs/product.md §23): its members only, as every shop starts (a visitor sees signup-login and
 * the 404 page), or everyone (a visitor browses and fills a cart, and signs up to check out).
 */
export const openToChoices = ['members', 'everyone'] as const;
export type OpenTo = (typeof openToChoices)[number];
export const openToLabels: Readonly<Record<OpenTo, string>> = { members: 'Members only', everyone: 'Everyone' };
export const shopAccessSchema = z.strictObject({
  openTo: z.enum(openToChoices, { error: 'Choose who can see the shop.' }),
});
export type ShopAccess = z.infer<typeof shopAccessSchema>;
