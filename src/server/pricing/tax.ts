/**
 * The shop's tax as arithmetic (docs/product.md §19): which of the shop's rates apply to a place, and the tax lines an
 * order's goods and shipping carry under them. Nothing here reads settings: `price.ts` passes the rates and the shop's
 * choices. Amounts are integer cents; each line is rounded once, half away from zero.
 */
import { rateScale, type TaxLine, type TaxRate } from '../../shared/tax';

/** Where an order is taxed: where it is delivered, or the yard it is collected at. */
export interface TaxPlace {
  country: string;
  region: string | null;
  postalCode: string | null;
}

/** A postal code as rates compare it: capitals, no spaces or dashes ('sw1a 1aa' and 'SW1A1AA' are one code). */
export function postalKey(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function matches(rate: TaxRate, place: TaxPlace): boolean {
  if (rate.country !== place.country) return false;
  if (rate.region !== null && rate.region !== place.region) return false;
  if (rate.postalPrefix === null) return true;
  return place.postalCode !== null && postalKey(place.postalCode).startsWith(postalKey(rate.postalPrefix));
}

/** How specific a rate is: a longer postal prefix first, then a region over the whole country. */
function specificity(rate: TaxRate): number {
  return (rate.postalPrefix === null ? 0 : postalKey(rate.postalPrefix).length * 2) + (rate.region === null ? 0 : 1);
}

/**
 * The rates that apply to an address: of each name, the most specific that matches (a postal prefix over a region
 * over the country; the first in the table among equals), in the table's order. Rates of different names all apply.
 */
export function ratesFor(rates: readonly TaxRate[], place: TaxPlace): TaxRate[] {
  const best = new Map<string, TaxRate>();
  for (const rate of rates) {
    if (!matches(rate, place)) continue;
    const held = best.get(rate.name);
    if (held === undefined || specificity(rate) > specificity(held)) best.set(rate.name, rate);
  }
  return rates.filter((rate) => best.get(rate.name) === rate);
}

/**
 * amount × numerator / denominator, rounded to a whole number half away from zero, exactly: the product is never
 * rounded first, however large.
 */
export function shareRounded(amount: number, numerator: number, denominator: number): number {
  const n = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const rounded = (2n * an + ad) / (2n * ad);
  return Number(negative ? -rounded : rounded);
}

/** The shop's choices that decide how tax is charged, with the rates that apply to the order's address. */
export interface TaxInput {
  /** On: the prices contain the tax (an EU shop); off: it is added at checkout (a US shop). */
  pricesIncludeTax: boolean;
  /** Whether shipping is taxed as the goods are. */
  taxShipping: boolean;
  /** The rates that apply (`ratesFor`). */
  rates: readonly TaxRate[];
}

/** A new shop's tax: none of its own, its prices include any (docs/product.md §19). */
export const noTax: TaxInput = { pricesIncludeTax: true, taxShipping: false, rates: [] };

/**
 * The tax lines of an order whose goods (after any discount) and shipping cost these amounts. Every rate is charged
 * on the same base, the amount without tax. Prices without tax: each line is the base times its rate, rounded. Prices
 * with tax: the amount taxed contains every rate at once, so each line is its share of it, rounded, and the base is
 * what is left, so that base and lines add up to the amount to the cent.
 */
export function taxLines(goodsCents: number, shippingCents: number, tax: TaxInput): TaxLine[] {
  const taxedCents = goodsCents + (tax.taxShipping ? shippingCents : 0);
  const rates = tax.rates.filter((rate) => rate.rate > 0);
  if (rates.length === 0 || taxedCents === 0) return [];
  if (!tax.pricesIncludeTax) {
    return rates.map(({ name, rate }) => ({
      name,
      rate,
      baseCents: taxedCents,
      amountCents: shareRounded(taxedCents, rate, rateScale),
      included: false,
    }));
  }
  const combined = rateScale + rates.reduce((sum, rate) => sum + rate.rate, 0);
  const amounts = rates.map(({ rate }) => shareRounded(taxedCents, rate, combined));
  const baseCents = taxedCents - amounts.reduce((sum, amount) => sum + amount, 0);
  return rates.map(({ name, rate }, i) => ({
    name,
    rate,
    baseCents,
    amountCents: amounts[i] as number,
    included: true,
  }));
}
