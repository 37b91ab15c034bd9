/**
 * What a refund of some of an order's lines (and, if asked, its shipping) pays back (docs/product.md §25,
 * docs/decisions/0064-returns.md): each line's price less its share of the discount, with its share of the tax when
 * the tax was added; shipping with the tax that is shipping's. Made from the shares the order keeps per line
 * (spread.ts), so that refunding every line and the shipping, in any number of refunds, pays back exactly the total.
 * Pure.
 */
import type { OrderMoney } from '../../shared/pricing';
import { moneyOf } from './pricing';
import { spreadCents } from './spread';

/** One line of an order as it keeps its money: its price and its shares of the order's discount and tax. */
export interface LineMoney {
  priceCents: number;
  discountCents: number;
  taxCents: number;
}

/** What of each tax line a refund gives back. */
export interface RefundTaxLine {
  name: string;
  rate: number;
  amountCents: number;
  included: boolean;
}

/** A refund's parts, each zero or more: what came back, of the goods, the discount, shipping and tax. */
export interface RefundParts {
  amountCents: number;
  goodsCents: number;
  /** The discount the lines had: it is not paid back, so it counts against the goods. */
  discountCents: number;
  shippingCents: number;
  /** All the tax that came back, shipping's among it (`shippingTaxCents`). */
  taxCents: number;
  shippingTaxCents: number;
  taxLines: RefundTaxLine[];
}

export interface RefundAsk {
  /** The order's money, as it was placed. */
  money: OrderMoney;
  /** Every line of the order: what shipping's tax is (the order's tax less its lines'). */
  allLines: readonly LineMoney[];
  /** The lines refunded now. */
  lines: readonly LineMoney[];
  /** Whether shipping (with its tax) comes back too. */
  shipping: boolean;
}

/** The tax of the order that no line carries: shipping's, when the shop taxed shipping. */
export function shippingTaxOf(money: OrderMoney, allLines: readonly LineMoney[]): number {
  return Math.max(0, money.taxCents - allLines.reduce((sum, line) => sum + line.taxCents, 0));
}

/** What shipping pays back, with its tax when the tax was added. */
export function shippingDueOf(money: OrderMoney, allLines: readonly LineMoney[]): number {
  const added = (money.taxLines ?? []).some((line) => !line.included);
  return money.shippingCents + (added ? shippingTaxOf(money, allLines) : 0);
}

export function refundOf({ money, allLines, lines, shipping }: RefundAsk): RefundParts {
  const taxLines = money.taxLines ?? [];
  const added = taxLines.some((line) => !line.included);
  const goodsCents = lines.reduce((sum, line) => sum + line.priceCents, 0);
  const discountCents = lines.reduce((sum, line) => sum + line.discountCents, 0);
  const shippingCents = shipping ? money.shippingCents : 0;
  const shippingTaxCents = shipping ? shippingTaxOf(money, allLines) : 0;
  const taxCents = lines.reduce((sum, line) => sum + line.taxCents, 0) + shippingTaxCents;
  const shares =
    taxLines.length === 0
      ? []
      : spreadCents(
          taxCents,
          taxLines.map((line) => line.amountCents),
        );
  return {
    amountCents: goodsCents - discountCents + shippingCents + (added ? taxCents : 0),
    goodsCents,
    discountCents,
    shippingCents,
    taxCents,
    shippingTaxCents,
    taxLines: taxLines.map(({ name, rate, included }, i) => ({ name, rate, included, amountCents: shares[i] ?? 0 })),
  };
}

/**
 * The money a credit note for a refund states (before invoice-record.ts makes it negative): the goods, the discount
 * they had, the shipping and the tax that came back, in the order's currency; its total is the refund's amount.
 */
export function refundMoney(money: OrderMoney, refund: RefundParts): OrderMoney {
  const adjustment = money.adjustments?.find((a) => a.amountCents < 0) ?? money.adjustments?.[0];
  // What the tax was charged on: the goods after their discount, and shipping when it carried tax; without the tax
  // when the prices contained it.
  const included = refund.taxLines.some((line) => line.included);
  const lineTaxCents = refund.taxCents - refund.shippingTaxCents;
  const goodsBase = refund.goodsCents - refund.discountCents - (included ? lineTaxCents : 0);
  const shippingBase =
    refund.shippingTaxCents > 0 ? refund.shippingCents - (included ? refund.shippingTaxCents : 0) : 0;
  const baseCents = goodsBase + shippingBase;
  return moneyOf({
    currency: money.currency,
    subtotalCents: refund.goodsCents,
    shippingCents: refund.shippingCents,
    ...(refund.discountCents > 0 && adjustment
      ? { adjustments: [{ ...adjustment, amountCents: -refund.discountCents }] }
      : {}),
    ...(refund.taxLines.length > 0
      ? { taxLines: refund.taxLines.map((line) => ({ ...line, baseCents: Math.max(0, baseCents) })) }
      : {}),
    ...(money.pricesExcludeTax ? { pricesExcludeTax: true as const } : {}),
    ...(refund.shippingCents > 0 && money.shippingMethod ? { shippingMethod: money.shippingMethod } : {}),
    totalCents: refund.amountCents,
  });
}
