import { defaultCountry } from './address';
import { type Delivery, deliveries } from './delivery';

/**
 * What the checkout page's query (`/checkout?delivery=…&country=…`) asks the quote for: the delivery (shipping unless
 * it names collection), the address's country (the shop's when left out), region and postal code (none), the method
 * chosen and the discount code applied, if any (ADR 0035). One reading for the page's loader and for the server, which
 * writes the page's first quote into its HTML (ADR 0045).
 */
export interface CheckoutChoices {
  delivery: Delivery;
  place: { country: string; region: string; postalCode: string };
  method: string | undefined;
  discountCode: string | undefined;
}

export function checkoutChoices(search: URLSearchParams): CheckoutChoices {
  const chosen = search.get('delivery');
  return {
    delivery: deliveries.find((d) => d === chosen) ?? 'shipping',
    place: {
      country: search.get('country') ?? defaultCountry,
      region: search.get('region') ?? '',
      postalCode: search.get('postalCode') ?? '',
    },
    method: search.get('method') ?? undefined,
    discountCode: search.get('code') ?? undefined,
  };
}
