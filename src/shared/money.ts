/**
 * Amounts of money (ADR 0005): integer cents, summed exactly, written and read in a currency and a locale that the
 * caller passes (the shop's, in brand.ts today; its settings tomorrow), so that nothing here is fixed when it loads.
 */

/** How amounts read: the currency they are cents of, and the locale that writes them. */
export interface MoneyFormat {
  readonly currency: string;
  readonly locale: string;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** The locale's number format for the currency, with its symbol (`$302.99`) or without (`302.99`); made once. */
function formatter({ currency, locale }: MoneyFormat, symbol: boolean): Intl.NumberFormat {
  const key = `${locale} ${currency} ${symbol}`;
  let made = formatters.get(key);
  if (made === undefined) {
    made = new Intl.NumberFormat(locale, {
      ...(symbol ? { style: 'currency', currency } : { useGrouping: false }),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, made);
  }
  return made;
}

/** Formats integer cents as currency, e.g. 30299 -> "$302.99". */
export function formatCents(cents: number, format: MoneyFormat): string {
  return formatter(format, true).format(cents / 100);
}

/** Integer cents as a plain number to type over or add up, without symbol or grouping, e.g. 30299 -> "302.99". */
export function formatAmount(cents: number, format: MoneyFormat): string {
  return formatter(format, false).format(cents / 100);
}

/** Sums integer cents exactly; never a floating-point sum of prices. */
export function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((total, cents) => total + cents, 0);
}

/** The cart's Total cell: the formatted sum, and exactly "0" for an empty cart (docs/product.md §5). */
export function formatTotal(amounts: readonly number[], format: MoneyFormat): string {
  return amounts.length === 0 ? '0' : formatCents(sumCents(amounts), format);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const parsers = new Map<string, RegExp>();

/** What an amount as typed looks like in the locale: an optional symbol, digits grouped or not, up to two decimals. */
function parser(format: MoneyFormat): RegExp {
  const key = `${format.locale} ${format.currency}`;
  let made = parsers.get(key);
  if (made === undefined) {
    const parts = formatter(format, true).formatToParts(1234.5);
    const part = (type: string) => escaped(parts.find((p) => p.type === type)?.value ?? '');
    made = new RegExp(
      `^\\s*(?:${part('currency')})?\\s*(\\d{1,3}(?:${part('group')}\\d{3})+|\\d+)(?:${part('decimal')}(\\d{1,2}))?\\s*$`,
      'u',
    );
    parsers.set(key, made);
  }
  return made;
}

/**
 * An amount as typed ("302.99", "$1,250", "3.5") as integer cents; undefined for anything else (a third decimal, a
 * sign, letters) and for an amount too large to count exactly.
 */
export function parseCents(text: string, format: MoneyFormat): number | undefined {
  const match = parser(format).exec(text);
  if (!match) return undefined;
  const units = Number((match[1] as string).replace(/\D/g, ''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  const total = units * 100 + cents;
  return Number.isSafeInteger(total) ? total : undefined;
}
