/**
 * The returns and reports sections of the shop's settings (src/shared/settings.ts; docs/product.md §25, §26;
 * docs/decisions/0064-returns.md): how long after shipping a rider may send lines back and where to, and how few of
 * a size the owner's reports call low.
 */
import './zod-config';
import { z } from 'zod';
import { shopAddressSchema } from './settings-shop';

export const returnsLimits = {
  /** A year: longer than any shop's promise, short enough that a mistyped figure is caught. */
  daysMax: 365,
  lowStockMax: 1000,
} as const;

export const returnsSettingsSchema = z.strictObject({
  /** Days after an order is shipped or collected in which its rider may ask to return lines; 0 turns returns off. */
  days: z
    .number({ error: 'Days to return must be a number.' })
    .int('Days to return must be a whole number.')
    .min(0, 'Days to return cannot be negative.')
    .max(returnsLimits.daysMax, `Days to return must be at most ${returnsLimits.daysMax}.`),
  /** Where riders send what they return; null: the shop's own address. */
  address: shopAddressSchema.nullable(),
});
export type ReturnsSettings = z.infer<typeof returnsSettingsSchema>;

export const reportsSettingsSchema = z.strictObject({
  /** A size with this many or fewer left is low in stock. */
  lowStock: z
    .number({ error: 'Low stock must be a number.' })
    .int('Low stock must be a whole number.')
    .min(0, 'Low stock cannot be negative.')
    .max(returnsLimits.lowStockMax, `Low stock must be at most ${returnsLimits.lowStockMax}.`),
});
export type ReportsSettings = z.infer<typeof reportsSettingsSchema>;
