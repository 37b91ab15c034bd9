/**
 * What the shop charges (docs/product.md §8, §16, §18, §19; docs/decisions/0032-an-orders-money.md): the one place that
 * prices an order, for the checkout's quote and for the order in its own transaction, so that the page shows what the
 * order charges. From the shop's settings as the caller read them, the cart's rows, the delivery, the place and a
 * discount code found usable, it gives the methods that deliver the cart, the one chosen and the order's money,
 * with its sums made here once. Nothing else in the server computes an amount of an order's.
 */
import type { Delivery } from '../../shared/delivery';
import type { DiscountGives } from '../../shared/discounts';
import type { OrderMoney } from '../../shared/pricing';
import type { ShopSettings } from '../../shared/settings';
import type { ShippingOption } from '../../shared/shipping';
import { type Breakdown, discountEffect, noDiscount, priceOrder } from './arithmetic';
import { collectionOption, shippingOptions } from './shipping';
import type { LineShare } from './spread';
import { ratesFor, type TaxInput, type TaxPlace } from './tax';

/** What is asked to be priced. */
export interface PriceAsk {
  /** The cart's rows as the server holds them (their prices), and what they weigh. */
  cart: { items: readonly { priceCents: number }[]; weightGrams: number };
  delivery: Delivery;
  /**
   * Where it goes: the country, the region as its ISO 3166-2 code where the country has subdivisions (the routes
   * read it so, src/server/places/places.ts), and the postal code; for collection, only the country is the rider's.
   */
  place: { country: string; region: string; postalCode: string };
  /** The delivery method asked for, by id; the first offered when left out. */
  methodId?: string;
  /** A discount code found usable (src/server/discounts/discount-store.ts): as the owner wrote it, and what it gives. */
  discount?: { code: string; gives: DiscountGives };
}

/** Why an order cannot be placed as asked, though it is priced as far as it can be. */
export type PriceProblem =
  /** The place is outside every shipping zone (`country`: its code). */
  | { reason: 'not-shipped'; country: string }
  /** The method asked for is not offered there, or none is (the cart is too heavy for every one, no collection). */
  | { reason: 'no-such-method' };

export interface Priced {
  /** The methods that deliver the cart there, each priced (collection alone, for collection); none outside every zone. */
  options: ShippingOption[];
  /** The method priced: the one asked for, else the first offered; undefined when none is offered. */
  chosen: ShippingOption | undefined;
  /** The order's money with `chosen`'s price: the goods alone when there is none. */
  money: OrderMoney;
  /** Each line's price before the adjustments and tax, in the cart's order. */
  lineCents: number[];
  /** What each line carries of the discount and the tax, in the cart's order (spread.ts), kept with the order. */
  lineShares: LineShare[];
  problem?: PriceProblem;
}

/** An order's money as it is kept (its parts), and what the sums of every reader are. */
export type MoneyParts = Omit<OrderMoney, 'taxCents' | 'netCents'>;

/** An order's money from its parts: the tax in all and the amount without it, made here once for every reader. */
export function moneyOf(parts: MoneyParts): OrderMoney {
  const taxCents = (parts.taxLines ?? []).reduce((sum, line) => sum + line.amountCents, 0);
  return { ...parts, taxCents, netCents: parts.totalCents - taxCents };
}

/**
 * Where an order is taxed (docs/product.md §19): where it is delivered, or, collected at the yard, where the yard is
 * (a sale made there, docs/decisions/0051-a-sale-at-the-yard.md).
 */
function taxPlaceOf({ shop }: ShopSettings, delivery: Delivery, place: PriceAsk['place']): TaxPlace {
  const { country, region, postalCode } = delivery === 'collection' ? shop.address : place;
  const orNull = (text: string) => (text.trim() === '' ? null : text);
  return { country, region: orNull(region), postalCode: orNull(postalCode) };
}

/** The parts an order keeps of a breakdown, with the shop's currency and how its tax was charged. */
function partsOf(
  { subtotalCents, shippingCents, adjustments, taxLines, totalCents }: Breakdown,
  { currency }: ShopSettings['format'],
  tax: TaxInput,
  method: ShippingOption | undefined,
): MoneyParts {
  return {
    currency,
    subtotalCents,
    shippingCents,
    ...(adjustments.length > 0 ? { adjustments } : {}),
    ...(taxLines.length > 0 ? { taxLines } : {}),
    ...(tax.pricesIncludeTax ? {} : { pricesExcludeTax: true as const }),
    ...(method ? { shippingMethod: { name: method.name, estimate: method.estimate } } : {}),
    totalCents,
  };
}

/**
 * Prices `ask` with the shop's settings `shop`: the methods that deliver the cart to the place (or collection), the
 * one asked for (or the first), and the order's money at its price with the code's effect and the tax of the place.
 * An ask that cannot be ordered (outside every zone, no such method) is still priced as far as it can be: the goods
 * and their tax, for the checkout to show with why.
 */
export function priceCheckout(shop: ShopSettings, ask: PriceAsk): Priced {
  const { cart, delivery, place, methodId, discount } = ask;
  const lineCents = cart.items.map((item) => item.priceCents);
  const subtotalCents = lineCents.reduce((sum, cents) => sum + cents, 0);
  const collected = collectionOption(shop.shipping);
  const offered =
    delivery === 'collection'
      ? collected
        ? [collected]
        : []
      : shippingOptions(shop.shipping, place, { weightGrams: cart.weightGrams, subtotalCents });
  const options = offered ?? [];
  const asked = methodId === undefined ? options[0] : options.find((option) => option.id === methodId);
  const chosen = asked ?? options[0];
  const problem: PriceProblem | undefined =
    offered === undefined
      ? { reason: 'not-shipped', country: place.country }
      : asked === undefined
        ? { reason: 'no-such-method' }
        : undefined;
  const effect = discount ? discountEffect(discount.code, discount.gives, subtotalCents) : noDiscount;
  const tax: TaxInput = {
    pricesIncludeTax: shop.tax.pricesIncludeTax,
    taxShipping: shop.tax.taxShipping,
    rates: ratesFor(shop.tax.rates, taxPlaceOf(shop, delivery, place)),
  };
  const breakdown = priceOrder({
    lineCents,
    shippingCents: chosen?.cents ?? 0,
    adjustments: effect.adjustments,
    freeShipping: effect.freeShipping,
    tax,
  });
  const money = moneyOf(partsOf(breakdown, shop.format, tax, chosen));
  return {
    options,
    chosen,
    money,
    lineCents: breakdown.lineCents,
    lineShares: breakdown.spread.lines,
    ...(problem ? { problem } : {}),
  };
}
