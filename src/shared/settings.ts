/**
 * The shop's settings (docs/product.md §17, docs/decisions/0034-the-shops-settings.md): one document the owner
 * edits in the back office, in sections. Both sides use these rules: the owner's form and the server's check. The
 * server keeps the document in the database (src/server/settings/). A section added later (shipping, tax) has its
 * first values in a migration.
 */
import './zod-config';
import { z } from 'zod';
import { addressFields, countryCodePattern, postalCodePattern, type ShopAddress } from './address';
import { rateScale, type TaxRate } from './tax';
import { noControlCharacters } from './text';

/** The payment methods a shop may offer, by id (src/shared/payment/payment-methods.ts has each). */
export const paymentMethodIds = ['bank-transfer', 'collection', 'card'] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

/** Each field's name in messages and its longest value. */
export const settingsLimits = {
  nameMax: 80,
  legalNameMax: 120,
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

// ---------------------------------------------------------------------------------------------------------
// Shipping (docs/product.md §18, docs/decisions/0035-shipping-zones.md)

/** The shipping section's bounds: what one owner's form can hold. */
export const shippingLimits = {
  zonesMax: 40,
  placesMax: 250,
  regionsMax: 100,
  methodsMax: 10,
  bandsMax: 20,
  methodNameMax: 40,
  estimateMax: 80,
  /** $100,000.00: more than any order's shipping. */
  centsMax: 10_000_000,
  /** 1,000 kg. */
  gramsMax: 1_000_000,
} as const;

/** A zone's or method's id: chosen once (the owner's form makes it), the same in every save and every order. */
const idSchema = z
  .string({ error: 'An id must be text.' })
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'An id is 1 to 40 small letters, digits and hyphens.');

function cents(name: string) {
  return z
    .number({ error: `${name} must be an amount.` })
    .int(`${name} must be in whole cents.`)
    .min(0, `${name} cannot be negative.`)
    .max(shippingLimits.centsMax, `${name} must be at most $${shippingLimits.centsMax / 100}.`);
}

/** One band of a price by weight: an order weighing up to `upToGrams` (and more than the band before) pays `cents`. */
export const weightBandSchema = z.strictObject({
  upToGrams: z
    .number({ error: 'Up to (grams) must be a number.' })
    .int('Up to (grams) must be whole grams.')
    .min(1, 'Up to (grams) must be at least 1.')
    .max(shippingLimits.gramsMax, `Up to (grams) must be at most ${shippingLimits.gramsMax}.`),
  cents: cents('Price'),
});

/** A method's price: one for every order, or by the order's weight in ascending bands. */
export const shippingPriceSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('flat'), cents: cents('Price') }),
    z.strictObject({
      kind: z.literal('bands'),
      bands: z
        .array(weightBandSchema)
        .min(1, 'Give at least one weight band.')
        .max(shippingLimits.bandsMax, `At most ${shippingLimits.bandsMax} weight bands.`)
        .superRefine((bands, context) => {
          bands.forEach((band, index) => {
            const before = bands[index - 1];
            if (before !== undefined && band.upToGrams <= before.upToGrams) {
              context.addIssue({
                code: 'custom',
                path: [index, 'upToGrams'],
                message: `The bands overlap: this one must go above ${before.upToGrams} g.`,
              });
            }
          });
        }),
    }),
  ],
  { error: 'A price is flat or by weight.' },
);
export type ShippingPrice = z.infer<typeof shippingPriceSchema>;

/** One way a zone's orders are delivered ('Standard', 'Express'), with its price and estimate. */
export const shippingMethodSchema = z.strictObject({
  id: idSchema,
  name: required('Name', shippingLimits.methodNameMax),
  price: shippingPriceSchema,
  /** The subtotal from which it is free; null: never free. */
  freeFromCents: cents('Free from').nullable(),
  /** '3 to 5 working days'; may be empty. */
  estimate: line('Delivery estimate', shippingLimits.estimateMax),
});
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

/** A country a zone covers: all of it (no regions), or the ISO 3166-2 subdivisions listed ('US-FL'). */
export const zonePlaceSchema = z.strictObject({
  country: z.string({ error: 'A country must be a code.' }).regex(/^[A-Z]{2}$/, 'A country is a code such as US.'),
  regions: z
    .array(
      z
        .string({ error: 'A region must be a code.' })
        .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'A region is a code such as US-FL.'),
    )
    .max(shippingLimits.regionsMax, `At most ${shippingLimits.regionsMax} regions of one country.`),
});
export type ZonePlace = z.infer<typeof zonePlaceSchema>;

export const shippingZoneSchema = z.strictObject({
  id: idSchema,
  name: required('Zone name', settingsLimits.nameMax),
  places: z
    .array(zonePlaceSchema)
    .min(1, 'A zone covers at least one country.')
    .max(shippingLimits.placesMax, `At most ${shippingLimits.placesMax} countries in one zone.`),
  methods: z
    .array(shippingMethodSchema)
    .min(1, 'A zone offers at least one delivery method.')
    .max(shippingLimits.methodsMax, `At most ${shippingLimits.methodsMax} methods in one zone.`),
});
export type ShippingZone = z.infer<typeof shippingZoneSchema>;

/** 'Collect at the yard': free, no address, the only delivery 'Pay on collection' goes with. */
export const collectionSettingsSchema = z.strictObject({
  offered: z.boolean({ error: 'Say whether riders may collect.' }),
  /** 'Ready the next working day'; may be empty. */
  estimate: line('Delivery estimate', shippingLimits.estimateMax),
});

/** The id of 'Collect at the yard' among the methods a checkout lists: no zone's method may take it. */
export const collectionMethodId = 'collection';

export const shippingSettingsSchema = z
  .strictObject({
    zones: z.array(shippingZoneSchema).max(shippingLimits.zonesMax, `At most ${shippingLimits.zonesMax} zones.`),
    collection: collectionSettingsSchema,
  })
  .superRefine(({ zones }, context) => {
    const zoneIds = new Set<string>();
    const methodIds = new Set<string>([collectionMethodId]);
    zones.forEach((zone, z) => {
      if (zoneIds.has(zone.id))
        context.addIssue({ code: 'custom', path: ['zones', z, 'id'], message: 'Zone ids must differ.' });
      zoneIds.add(zone.id);
      const countries = new Set<string>();
      zone.places.forEach((place, p) => {
        if (countries.has(place.country)) {
          context.addIssue({
            code: 'custom',
            path: ['zones', z, 'places', p, 'country'],
            message: `${place.country} is listed twice in this zone.`,
          });
        }
        countries.add(place.country);
        place.regions.forEach((region, r) => {
          if (!region.startsWith(`${place.country}-`)) {
            context.addIssue({
              code: 'custom',
              path: ['zones', z, 'places', p, 'regions', r],
              message: `${region} is not a region of ${place.country}.`,
            });
          }
        });
      });
      zone.methods.forEach((method, m) => {
        if (methodIds.has(method.id)) {
          context.addIssue({
            code: 'custom',
            path: ['zones', z, 'methods', m, 'id'],
            message: 'Method ids must differ.',
          });
        }
        methodIds.add(method.id);
      });
    });
  });
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;

// ---------------------------------------------------------------------------------------------------------
// Tax (docs/product.md §19, docs/decisions/0041-tax-settings.md; the arithmetic is tax.ts's)

/** The tax section's bounds. */
export const taxLimits = {
  ratesMax: 200,
  nameMax: 40,
  postalPrefixMax: 16,
  /** 100%, in thousandths of a percent. */
  rateMax: rateScale,
} as const;

/** One row of the table of rates: where it applies (a country, and optionally a region and postal codes) and how much. */
export const taxRateSchema = z.strictObject({
  country: z.string({ error: 'A country must be a code.' }).regex(/^[A-Z]{2}$/, 'A country is a code such as US.'),
  region: z
    .string({ error: 'A region must be a code.' })
    .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'A region is a code such as US-FL.')
    .nullable(),
  postalPrefix: line('Postal code prefix', taxLimits.postalPrefixMax)
    .min(1, 'Postal code prefix is empty: leave it out for every postal code.')
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, 'Postal code prefix may have only letters, digits, spaces and hyphens.')
    .nullable(),
  /** In thousandths of a percent: 7% is 7000 (tax.ts's `rateScale`). */
  rate: z
    .number({ error: 'Rate (%) must be a number.' })
    .int('Rate (%) may have at most three decimals.')
    .min(0, 'Rate (%) cannot be negative.')
    .max(taxLimits.rateMax, 'Rate (%) must be at most 100.'),
  name: required('Name', taxLimits.nameMax),
}) satisfies z.ZodType<TaxRate>;

export const taxSettingsSchema = z
  .strictObject({
    /** On: the prices shown contain the tax (an EU shop); off: tax is added at checkout (a US shop). */
    pricesIncludeTax: z.boolean({ error: 'Say whether the prices include tax.' }),
    taxShipping: z.boolean({ error: 'Say whether shipping is taxed.' }),
    rates: z.array(taxRateSchema).max(taxLimits.ratesMax, `At most ${taxLimits.ratesMax} tax rates.`),
  })
  .superRefine(({ rates }, context) => {
    const seen = new Set<string>();
    rates.forEach((rate, r) => {
      if (rate.region !== null && !rate.region.startsWith(`${rate.country}-`)) {
        context.addIssue({
          code: 'custom',
          path: ['rates', r, 'region'],
          message: `${rate.region} is not a region of ${rate.country}.`,
        });
      }
      const where = JSON.stringify([rate.name, rate.country, rate.region, rate.postalPrefix]);
      if (seen.has(where)) {
        context.addIssue({
          code: 'custom',
          path: ['rates', r, 'name'],
          message: `A rate named “${rate.name}” is listed twice for the same place.`,
        });
      }
      seen.add(where);
    });
  });
export type TaxSettings = z.infer<typeof taxSettingsSchema>;

/** A rate as the owner types it ('7', '8.875') in thousandths of a percent; NaN when it is no number. */
export function rateOfPercent(typed: string): number {
  const match = /^\s*(\d{1,3})(?:[.,](\d+))?\s*$/.exec(typed);
  if (!match) return Number.NaN;
  const [, whole = '', decimals = ''] = match;
  // More than three decimals: a fraction of a thousandth, which the schema refuses by name.
  return Number(`${whole}${decimals.padEnd(3, '0').slice(0, 3)}.${decimals.slice(3) || '0'}`);
}

/** A rate in thousandths of a percent as the owner's form shows it: 8875 -> '8.875'. */
export function percentOfRate(rate: number): string {
  return String(rate / 1000);
}

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

/** The whole document, section by section. */
export const shopSettingsSchema = z.strictObject({
  shop: shopDetailsSchema,
  access: shopAccessSchema,
  format: shopFormatSchema,
  bankTransfer: bankTransferSchema,
  paymentMethods: offeredPaymentMethodsSchema,
  shipping: shippingSettingsSchema,
  tax: taxSettingsSchema,
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
