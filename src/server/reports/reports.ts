import { countryName } from '../../shared/address';
import {
  addDays,
  chartSteps,
  daysBetween,
  type Period,
  periodOf,
  type Report,
  type ReportFigures,
  type ReportQuery,
} from '../../shared/reports';
import { csvAmount, csvFile, csvText } from '../books/csv';
import { shopTime, startOfShopDay } from '../books/shop-time';
import type { Db } from '../db/database';
import { regionName } from '../places/places';
import { createReportQueries, type DayFigures, type ReportQueries, type TaxRow } from './report-queries';

/** The shop's settings a report reads: its time zone and currency, and the low-stock threshold. */
export interface ReportShop {
  timeZone: string;
  currency: string;
  lowStock: number;
}

/** The shop's day at `now`, `2026-11-24`. */
function shopToday(timeZone: string, now: number): string {
  return shopTime(new Date(now).toISOString(), timeZone).slice(0, 10);
}

/** A period's figures from its days' (the tax apart); the average order is its sales less discounts per order. */
function figuresOf(days: readonly DayFigures[], taxCents: number): ReportFigures {
  const sum = (part: keyof DayFigures) => days.reduce((total, day) => total + day[part], 0);
  const orders = sum('orders');
  const grossCents = sum('grossCents');
  const discountCents = sum('discountCents');
  const refundCents = sum('refundCents');
  return {
    orders,
    grossCents,
    discountCents,
    refundCents,
    netCents: grossCents - discountCents - refundCents,
    shippingCents: sum('shippingCents'),
    taxCents,
    averageOrderCents: orders === 0 ? 0 : Math.round((grossCents - discountCents) / orders),
  };
}

const netOf = (day: DayFigures) => day.grossCents - day.discountCents - day.refundCents;
/** A tax's place as the owner reads it: `Florida, United States`, or the country alone. */
const placeOf = ({ country, region }: Pick<TaxRow, 'country' | 'region'>) =>
  [region ? (regionName(region) ?? region) : '', countryName(country)].filter(Boolean).join(', ');

const taxTotal = (rows: readonly TaxRow[]) => rows.reduce((total, row) => total + row.amountCents, 0);

/** The owner's reports (docs/product.md §26): a period's figures, chart, best sellers, codes, low stock and tax. */
export function createReports(db: Db, queries: ReportQueries = createReportQueries(db)) {
  /** The first instant of each of the days from `from` to `to`, and the end of the last. */
  const boundsOf = (from: string, to: string, timeZone: string) => {
    const count = daysBetween(from, to);
    return Array.from({ length: count + 1 }, (_, k) => startOfShopDay(addDays(from, k), timeZone));
  };

  /** The tax lines of the documents issued from the day `from` to the day `to`. */
  async function taxOf(from: string, to: string, timeZone: string): Promise<TaxRow[]> {
    const start = startOfShopDay(from, timeZone);
    const end = startOfShopDay(addDays(to, 1), timeZone);
    return queries.tax(start, end);
  }

  return {
    periodOf: (query: ReportQuery, { timeZone }: Pick<ReportShop, 'timeZone'>, now = Date.now()) =>
      periodOf(query, shopToday(timeZone, now)),

    async report(period: Period, shop: ReportShop, now = Date.now()): Promise<Report> {
      const { from, to, previousFrom, previousTo, unit } = period;
      const { timeZone } = shop;
      // The period before and the period are one run of days: the previous's first, up to the end of the period's last.
      const bounds = boundsOf(previousFrom, to, timeZone);
      const previousDays = daysBetween(previousFrom, previousTo);
      const start = bounds[previousDays] as number;
      const end = bounds.at(-1) as number;
      const [days, tax, previousTax, discounts, sold, lowCount] = await Promise.all([
        queries.days(bounds),
        taxOf(from, to, timeZone),
        taxOf(previousFrom, previousTo, timeZone),
        queries.discounts(start, end),
        queries.sold(start, end, shop.lowStock),
        queries.lowStockCount(shop.lowStock),
      ]);
      const before = days.slice(0, previousDays);
      const during = days.slice(previousDays);

      // Each step's net sales, and the same step of the period before.
      const stepNet = (periodFrom: string, periodTo: string, ofPeriod: readonly DayFigures[]) => {
        const steps = chartSteps(periodFrom, periodTo, unit);
        return steps.map((step, index) => {
          const next = steps[index + 1];
          const fromDay = daysBetween(periodFrom, step) - 1;
          const untilDay = next === undefined ? ofPeriod.length : daysBetween(periodFrom, next) - 1;
          return { from: step, netCents: ofPeriod.slice(fromDay, untilDay).reduce((sum, d) => sum + netOf(d), 0) };
        });
      };
      const steps = stepNet(from, to, during);
      const previousSteps = stepNet(previousFrom, previousTo, before);
      const chart = steps.map((step, index) => ({
        from: step.from,
        netCents: step.netCents,
        previousFrom: previousSteps[index]?.from ?? null,
        previousNetCents: previousSteps[index]?.netCents ?? null,
      }));

      // The pace of the period's days so far (all of them, for a period that has ended).
      const today = shopToday(timeZone, now);
      const elapsed = today < from ? 0 : daysBetween(from, today < to ? today : to);
      const lowStock = {
        threshold: shop.lowStock,
        count: lowCount,
        sizes: sold.low.map((size) => ({
          ...size,
          daysLeft: size.units === 0 || elapsed === 0 ? null : Math.floor((size.left * elapsed) / size.units),
        })),
      };
      return {
        period,
        figures: figuresOf(during, taxTotal(tax)),
        previous: figuresOf(before, taxTotal(previousTax)),
        chart,
        products: sold.products,
        sizes: sold.sizes,
        discounts,
        lowStock,
        tax: tax.map((row) => ({ ...row, place: placeOf(row) })),
      };
    },

    /** The period's tax collected by name and place, as a spreadsheet's CSV. */
    async taxCsv({ from, to }: Period, { timeZone, currency }: ReportShop): Promise<string> {
      const rows = await taxOf(from, to, timeZone);
      return csvFile(
        ['From', 'To', 'Tax', 'Place', 'Country', 'Region', 'Collected'],
        rows.map((row) =>
          [
            csvText(from),
            csvText(to),
            csvText(row.name),
            csvText(placeOf(row)),
            csvText(row.country),
            csvText(row.region),
            csvAmount(row.amountCents, currency),
          ].join(','),
        ),
      );
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
