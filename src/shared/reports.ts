/**
 * The owner's reports (docs/product.md §26, docs/decisions/0065-reports.md), for both sides: the period an address
 * asks for, how its days fall into the chart's steps, and the report's shape.
 */
import './zod-config';
import { z } from 'zod';
import { day } from './admin';

export const reportPresets = ['this-month', 'last-month', 'this-year'] as const;
export type ReportPreset = (typeof reportPresets)[number];

export const presetLabels: Record<ReportPreset, string> = {
  'this-month': 'This month',
  'last-month': 'Last month',
  'this-year': 'This year',
};

/** The longest period one report covers: a leap year. */
export const maxReportDays = 366;

const dayMs = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / dayMs;
const dateOf = (number: number) => new Date(number * dayMs).toISOString().slice(0, 10);

/** `2026-11-24` and `n` days later (or earlier, for a negative `n`). */
export function addDays(date: string, n: number): string {
  return dateOf(dayNumber(date) + n);
}

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/**
 * A report's period, as its address gives it: one of the presets, or two dates (both included); neither is this
 * month. The dates are the shop's (its time zone's).
 */
export const reportQuery = z
  .strictObject({
    period: z.enum(reportPresets, { error: 'period must be one of this-month, last-month, this-year.' }).optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine(
    ({ period, from, to }) => (period === undefined ? (from === undefined) === (to === undefined) : !from && !to),
    {
      message: 'Give a period, or both from and to.',
    },
  )
  .refine(({ from, to }) => !from || !to || from <= to, { message: 'from must not be after to.', path: ['to'] })
  .refine(({ from, to }) => !from || !to || daysBetween(from, to) <= maxReportDays, {
    message: `A report covers at most ${maxReportDays} days.`,
    path: ['to'],
  });
export type ReportQuery = z.infer<typeof reportQuery>;

/** How the chart steps through a period: a day, a week (seven days from its first), or a calendar month. */
export const chartUnits = ['day', 'week', 'month'] as const;
export type ChartUnit = (typeof chartUnits)[number];

/** A period's days and the period before it, which the chart sets beside it. */
export interface Period {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  unit: ChartUnit;
}

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
const monthEnd = (date: string) => addDays(monthStart(addDays(monthStart(date), 31)), -1);

/**
 * The period of a query on the shop's day `today`: a preset's whole month or year (this month and this year run to
 * their last day), or the dates given; the period before is the month or year before, or as many days just before.
 */
export function periodOf(query: ReportQuery, today: string): Period {
  const unitOf = (from: string, to: string): ChartUnit => {
    const days = daysBetween(from, to);
    return days <= 31 ? 'day' : days <= 92 ? 'week' : 'month';
  };
  if (query.from && query.to) {
    const days = daysBetween(query.from, query.to);
    const previousTo = addDays(query.from, -1);
    return {
      from: query.from,
      to: query.to,
      previousFrom: addDays(previousTo, 1 - days),
      previousTo,
      unit: unitOf(query.from, query.to),
    };
  }
  if (query.period === 'this-year') {
    const year = Number(today.slice(0, 4));
    return {
      from: `${year}-01-01`,
      to: `${year}-12-31`,
      previousFrom: `${year - 1}-01-01`,
      previousTo: `${year - 1}-12-31`,
      unit: 'month',
    };
  }
  const from = query.period === 'last-month' ? monthStart(addDays(monthStart(today), -1)) : monthStart(today);
  const previousFrom = monthStart(addDays(from, -1));
  return { from, to: monthEnd(from), previousFrom, previousTo: addDays(from, -1), unit: 'day' };
}

/** The first day of each step of the chart from `from` to `to`: every day, every seventh day, or each month's 1st. */
export function chartSteps(from: string, to: string, unit: ChartUnit): string[] {
  const steps: string[] = [];
  for (let step = from; step <= to; ) {
    steps.push(step);
    step = unit === 'day' ? addDays(step, 1) : unit === 'week' ? addDays(step, 7) : addDays(monthEnd(step), 1);
  }
  return steps;
}

const cents = z.number().int();

/** The period's figures, in cents of the shop's currency (docs/product.md §26 says what each counts). */
export const reportFiguresSchema = z.object({
  orders: z.number().int(),
  grossCents: cents,
  /** What discount codes took off the goods (a positive amount). */
  discountCents: cents,
  /** What the period's refunds paid back for goods, less the discount they gave back. */
  refundCents: cents,
  netCents: cents,
  shippingCents: cents,
  taxCents: cents,
  averageOrderCents: cents,
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

/** A product, or one of its sizes (`size` null for the product as a whole), and what it sold. */
export const reportItemSchema = z.object({
  itemid: z.string(),
  name: z.string(),
  size: z.string().nullable(),
  units: z.number().int(),
  netCents: cents,
});
export type ReportItem = z.infer<typeof reportItemSchema>;

const bestSchema = z.object({ byUnits: z.array(reportItemSchema), byNet: z.array(reportItemSchema) });

export const reportSchema = z.object({
  period: z.object({
    from: z.string(),
    to: z.string(),
    previousFrom: z.string(),
    previousTo: z.string(),
    unit: z.enum(chartUnits),
  }),
  figures: reportFiguresSchema,
  previous: reportFiguresSchema,
  /** Net sales of each step of the chart, and of the same step of the period before (null past its end). */
  chart: z.array(
    z.object({
      from: z.string(),
      netCents: cents,
      previousFrom: z.string().nullable(),
      previousNetCents: cents.nullable(),
    }),
  ),
  products: bestSchema,
  sizes: bestSchema,
  discounts: z.array(z.object({ code: z.string(), kind: z.string(), orders: z.number().int(), takenCents: cents })),
  lowStock: z.object({
    threshold: z.number().int(),
    /** How many sizes are at or below it in all; `sizes` are the soonest to sell out. */
    count: z.number().int(),
    sizes: z.array(
      z.object({
        itemid: z.string(),
        name: z.string(),
        size: z.string(),
        left: z.number().int(),
        units: z.number().int(),
        /** Whole days until it sells out at the period's pace; null when none sold in the period. */
        daysLeft: z.number().int().nullable(),
      }),
    ),
  }),
  /** Tax collected by name and place: the period's invoices' tax lines less its credit notes'. */
  tax: z.array(
    z.object({
      name: z.string(),
      /** ISO 3166 codes: `US` and `US-FL` (empty for a country's tax). */
      country: z.string(),
      region: z.string(),
      /** As the owner reads it: `Florida, United States`. */
      place: z.string(),
      amountCents: cents,
    }),
  ),
});
export type Report = z.infer<typeof reportSchema>;

/** The sizes listed as low in stock, the soonest to sell out first. */
export const lowStockListed = 50;
/** The best products and sizes listed, by each measure. */
export const bestListed = 10;
