import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ShopAddress } from './address';
import type { shippingOptionSchema } from './api';
import type { orderMoneySchema } from './orders';
import type { OrderMoney } from './pricing';
import type { shopAddressSchema, taxRateSchema } from './settings';
import type { ShippingOption } from './shipping';
import type { TaxRate } from './tax';

/**
 * Each type written by hand beside a schema of the same thing (for a page that must not load zod, ADR 0028) is the
 * schema's, field for field: a field added to one and not the other fails the type-check (`npm test`'s typecheck step,
 * which checks this file), where `satisfies` alone lets a schema leave out an optional field.
 */
describe('the hand-written types and their schemas', () => {
  it('agree exactly', () => {
    expectTypeOf<z.infer<typeof orderMoneySchema>>().toEqualTypeOf<OrderMoney>();
    expectTypeOf<z.infer<typeof shopAddressSchema>>().toEqualTypeOf<ShopAddress>();
    expectTypeOf<z.infer<typeof taxRateSchema>>().toEqualTypeOf<TaxRate>();
    expectTypeOf<z.infer<typeof shippingOptionSchema>>().toEqualTypeOf<ShippingOption>();
  });
});
