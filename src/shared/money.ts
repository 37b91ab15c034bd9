import { brand } from './brand';

const formatter = new Intl.NumberFormat(brand.locale, {
  style: 'currency',
  currency: brand.currency,
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Formats integer cents as currency, e.g. 30299 -> "$302.99". */
export function formatCents(cents: number): string {
  return formatter.format(cents / 100);
}

/** Sums integer cents exactly; never a floating-point sum of prices. */
export function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((total, cents) => total + cents, 0);
}

/** The cart's Total cell: the formatted sum, and exactly "0" for an empty cart (docs/product.md §5). */
export function formatTotal(amounts: readonly number[]): string {
  return amounts.length === 0 ? '0' : formatCents(sumCents(amounts));
}
