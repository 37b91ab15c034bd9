/**
 * What delivering an order costs, as arithmetic (docs/product.md §18, docs/decisions/0035-shipping-zones.md): the zone
 * an address is in, and the methods it offers for a cart of this weight and subtotal, each with its price. Nothing
 * here reads settings: `price.ts` passes the shipping section.
 */

import {
  collectionMethodId,
  type ShippingMethod,
  type ShippingSettings,
  type ShippingZone,
} from '../../shared/settings';
import { collectionName, type ShippingOption } from '../../shared/shipping';

/** Where an order goes: ISO 3166-1 alpha-2, and the ISO 3166-2 subdivision ('US-FL'), or text where the country has none. */
export interface ShippingPlace {
  country: string;
  region: string;
}

/** What the price depends on: the cart's weight and its subtotal (the goods before any discount). */
export interface ShippingCart {
  weightGrams: number;
  subtotalCents: number;
}

/**
 * The zone that ships to `place`: a zone naming the place's region wins over one covering the whole country; among
 * equals, the first in the owner's order. Undefined: outside every zone.
 */
export function zoneFor(zones: readonly ShippingZone[], place: ShippingPlace): ShippingZone | undefined {
  let whole: ShippingZone | undefined;
  for (const zone of zones) {
    const covered = zone.places.find((p) => p.country === place.country);
    if (covered === undefined) continue;
    if (covered.regions.includes(place.region)) return zone;
    if (covered.regions.length === 0) whole ??= zone;
  }
  return whole;
}

/** A method's price for this cart; undefined when the cart weighs more than its last band (the method is not offered). */
export function methodCents(method: ShippingMethod, { weightGrams, subtotalCents }: ShippingCart): number | undefined {
  if (method.freeFromCents !== null && subtotalCents >= method.freeFromCents) return 0;
  if (method.price.kind === 'flat') return method.price.cents;
  return method.price.bands.find((band) => weightGrams <= band.upToGrams)?.cents;
}

/**
 * The methods that deliver this cart to `place`, in the owner's order, each with its price; undefined when the place is
 * outside every zone (an empty list: the zone has no method for a cart this heavy).
 */
export function shippingOptions(
  shipping: ShippingSettings,
  place: ShippingPlace,
  cart: ShippingCart,
): ShippingOption[] | undefined {
  const zone = zoneFor(shipping.zones, place);
  if (zone === undefined) return undefined;
  return zone.methods.flatMap((method) => {
    const cents = methodCents(method, cart);
    return cents === undefined ? [] : [{ id: method.id, name: method.name, cents, estimate: method.estimate }];
  });
}

/** 'Collect at the yard', when the shop offers it: free, wherever the rider lives. */
export function collectionOption(shipping: ShippingSettings): ShippingOption | undefined {
  const { offered, estimate } = shipping.collection;
  return offered ? { id: collectionMethodId, name: collectionName, cents: 0, estimate } : undefined;
}
