/**
 * The shop's tax as both sides name it (docs/product.md §19): a rate of the owner's table, a tax line of an order, and
 * a rate as people read it. Which rates apply and what they come to is the server's (src/server/pricing/).
 */

/** A rate is a whole number of thousandths of a percent: 7% is 7000, 8.875% is 8875 (up to three decimals). */
export const rateScale = 100_000;

/** One row of the shop's table of rates. */
export interface TaxRate {
  /** The rate's name, as the order's line shows it ('FL sales tax', 'VAT 19%'). */
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 3166-2 subdivision code within the country ('US-FL'), or null for the whole country. */
  region: string | null;
  /** The start of the postal codes it covers, or null for every one. */
  postalPrefix: string | null;
  /** In thousandths of a percent (`rateScale`). */
  rate: number;
}

/** A tax line of an order: what it was charged on (the amount without tax), at what rate, and how much. */
export interface TaxLine {
  name: string;
  /** In thousandths of a percent (`rateScale`). */
  rate: number;
  /** The amount without tax the line was charged on, in cents. */
  baseCents: number;
  amountCents: number;
  /** True when the prices contain it (the total is unchanged); false when it is added to them. */
  included: boolean;
}

/** A rate as people read it: 7000 -> '7%', 8875 -> '8.875%'. */
export function formatRate(rate: number): string {
  return `${(rate / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })}%`;
}
