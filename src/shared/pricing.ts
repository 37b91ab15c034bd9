/**
 * An order's money as both sides read it (docs/product.md §8, docs/decisions/0032-an-orders-money.md): one value, made
 * once by the server's pricing (src/server/pricing/) and kept whole by the order, its invoice and its credit note, and
 * the rows every view prints of it. Nothing here computes an amount: the views only print what the value holds.
 */
import { formatCents, type MoneyFormat } from './money';
import { formatRate, type TaxLine } from './tax';

/** A change to the price of the goods, e.g. a discount code's amount off (negative cents). */
export interface Adjustment {
  label: string;
  amountCents: number;
  /** The discount code that made it, as the owner wrote it (src/shared/discounts.ts). */
  code?: string;
}

/**
 * What an order costs: the parts, the total they add up to, and the sums every reader needs (tax in all, the amount
 * without it). A part an order has none of (adjustments, tax lines) is left out, as for every order placed before
 * there were any. Amounts are integer cents of `currency`.
 */
export interface OrderMoney {
  /** ISO 4217: the currency it was priced in (the shop's then; every order before the setting, USD). */
  currency: string;
  subtotalCents: number;
  shippingCents: number;
  adjustments?: Adjustment[];
  /** One line per tax name (of each name, the one rate that applied). */
  taxLines?: TaxLine[];
  /**
   * Whether tax was added to the prices (the shop's prices exclude it) rather than contained in them; left out when
   * they include any, as for every order placed before the shop had a tax of its own.
   */
  pricesExcludeTax?: true;
  /** The delivery method the order was placed with (its price is `shippingCents`); left out of older orders. */
  shippingMethod?: { name: string; estimate: string };
  /** The tax it carries in all, added or contained: the sum of its tax lines. */
  taxCents: number;
  /** What it costs without tax: the total less `taxCents`. */
  netCents: number;
  totalCents: number;
}

/** The discount code an order used, if any: its adjustment names it (src/shared/discounts.ts). */
export function discountOf(money: Pick<OrderMoney, 'adjustments'>): Adjustment | undefined {
  return money.adjustments?.find((adjustment) => adjustment.code !== undefined);
}

/** One row of an order's money as every view prints it (checkout, the order's page, e-mails). */
export interface MoneyRow {
  label: string;
  amount: string;
  /** The row of the amount to pay. */
  isTotal: boolean;
}

/**
 * The rows of an order's money, in its own currency and the `locale` given: subtotal, adjustments, shipping, taxes
 * added, the total, and the taxes it contains.
 */
export function moneyRows(money: OrderMoney, locale: string): MoneyRow[] {
  const format: MoneyFormat = { currency: money.currency, locale };
  const row = (label: string, cents: number, isTotal = false): MoneyRow => ({
    label,
    amount: formatCents(cents, format),
    isTotal,
  });
  const taxLines = money.taxLines ?? [];
  return [
    row('Subtotal', money.subtotalCents),
    ...(money.adjustments ?? []).map((adjustment) => row(adjustment.label, adjustment.amountCents)),
    money.shippingCents === 0
      ? { label: 'Shipping', amount: 'Free', isTotal: false }
      : row('Shipping', money.shippingCents),
    ...taxLines.filter((tax) => !tax.included).map((tax) => row(tax.name, tax.amountCents)),
    row('Total', money.totalCents, true),
    ...taxLines
      .filter((tax) => tax.included)
      .map((tax) => row(`Includes ${tax.name} ${formatRate(tax.rate)}`, tax.amountCents)),
  ];
}

/** What a view says of tax when the prices contain it and no rate of the shop's applied (docs/product.md §19). */
export const taxNote = 'Prices include any tax.';

/**
 * What every view (checkout, the order's page, e-mails, invoices) says of an order's tax under its rows: `taxNote`
 * when its prices include any tax and it has no tax line of its own; nothing when its lines say it, or when tax is
 * added to the prices and none applied (the rider pays no tax, and 'include' would not be true).
 */
export function taxNoteOf(money: OrderMoney): string | undefined {
  return (money.taxLines ?? []).length === 0 && money.pricesExcludeTax !== true ? taxNote : undefined;
}
