/**
 * What an order costs (docs/product.md §8): one pure function from explicit inputs to the whole breakdown. Nothing
 * here reads settings or the clock: the caller passes the lines, the price of the delivery method chosen (shipping.ts), the
 * adjustments (a discount code's, docs/product.md §16) and the shop's tax with the rates for the address (tax.ts, §19).
 */
import { formatCents, type MoneyFormat, sumCents } from './money';
import { formatRate, type TaxInput, type TaxLine, taxLines } from './tax';

/** A change to the price of the goods, e.g. a discount code's amount off (negative cents). */
export interface Adjustment {
  label: string;
  amountCents: number;
  /** The discount code that made it, as the owner wrote it (src/shared/discounts.ts). */
  code?: string;
}

/**
 * What an order costs, as the order keeps it and the API sends it: the parts, and the total they add up to. A part an
 * order has none of (adjustments, tax lines) is left out, as for every order placed before there were any.
 */
export interface OrderMoney {
  subtotalCents: number;
  shippingCents: number;
  adjustments?: Adjustment[];
  taxLines?: TaxLine[];
  /**
   * Whether tax was added to the prices (the shop's prices exclude it) rather than contained in them; left out when
   * they include any, as for every order placed before the shop had a tax of its own.
   */
  pricesExcludeTax?: true;
  /** The delivery method the order was placed with (its price is `shippingCents`); left out of older orders. */
  shippingMethod?: { name: string; estimate: string };
  totalCents: number;
}

export interface PricingInput {
  /** Each line's price, in cents. */
  lineCents: readonly number[];
  /** The delivery method's price for this order (src/shared/shipping.ts: its zone, the cart's weight and subtotal). */
  shippingCents: number;
  /** Applied in order; a reduction lowers the goods to zero at most, and the breakdown keeps what it took. */
  adjustments: readonly Adjustment[];
  /** A discount code's free shipping: the delivery chosen costs nothing. */
  freeShipping?: boolean;
  /** The shop's tax and the rates that apply to the address: charged on the goods after the adjustments. */
  tax: TaxInput;
}

export interface Breakdown extends Required<Omit<OrderMoney, 'shippingMethod' | 'pricesExcludeTax'>> {
  lineCents: number[];
}

/** The whole breakdown of an order: its lines, the subtotal, shipping, adjustments, tax lines and the total. */
export function priceOrder({
  lineCents,
  shippingCents: methodCents,
  adjustments,
  freeShipping,
  tax,
}: PricingInput): Breakdown {
  const subtotalCents = sumCents(lineCents);
  const shippingCents = freeShipping ? 0 : methodCents;
  let goodsCents = subtotalCents;
  const applied = adjustments.map((adjustment) => {
    const taken = Math.max(adjustment.amountCents, -goodsCents);
    goodsCents += taken;
    return { ...adjustment, amountCents: taken };
  });
  const lines = taxLines(goodsCents, shippingCents, tax);
  const addedCents = sumCents(lines.filter((line) => !line.included).map((line) => line.amountCents));
  return {
    lineCents: [...lineCents],
    subtotalCents,
    shippingCents,
    adjustments: applied,
    taxLines: lines,
    totalCents: goodsCents + shippingCents + addedCents,
  };
}

/**
 * What an order keeps of its breakdown: the parts it has, without its lines (the order keeps those itself), and
 * whether its tax was added to the prices (`tax`, the shop's choice it was priced with; included when not given).
 */
export function moneyOf(
  { subtotalCents, shippingCents, adjustments, taxLines, totalCents }: Breakdown,
  tax?: Pick<TaxInput, 'pricesIncludeTax'>,
): OrderMoney {
  return {
    subtotalCents,
    shippingCents,
    ...(adjustments.length > 0 ? { adjustments } : {}),
    ...(taxLines.length > 0 ? { taxLines } : {}),
    ...(tax?.pricesIncludeTax === false ? { pricesExcludeTax: true as const } : {}),
    totalCents,
  };
}

/** The discount code an order used, if any: its adjustment names it (src/shared/discounts.ts). */
export function discountOf(money: OrderMoney): Adjustment | undefined {
  return money.adjustments?.find((adjustment) => adjustment.code !== undefined);
}

/** One row of an order's money as every view prints it (checkout, the order's page, e-mails). */
export interface MoneyRow {
  label: string;
  amount: string;
  /** The row of the amount to pay. */
  isTotal: boolean;
}

/** The rows of an order's money: subtotal, adjustments, shipping, taxes added, the total, and the taxes it contains. */
export function moneyRows(money: OrderMoney, format: MoneyFormat): MoneyRow[] {
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
