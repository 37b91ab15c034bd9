/**
 * The tax section of the shop's settings (src/shared/settings.ts; docs/product.md §19,
 * docs/decisions/0041-tax-settings.md): whether prices include tax, whether shipping is taxed, and the table of rates.
 * The arithmetic is tax.ts's.
 */
import './zod-config';
import { z } from 'zod';
import { line, required } from './settings-fields';
import { rateScale, type TaxRate } from './tax';

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
