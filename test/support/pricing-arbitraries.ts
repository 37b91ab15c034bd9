import fc from 'fast-check';
import { rateScale } from '../../src/shared/tax';

/** Generated inputs of the pricing's arithmetic (src/server/pricing), for its property tests. */

/** An amount in cents: a line's price or shipping, up to $100,000.00. */
export const cents = fc.integer({ min: 0, max: 10_000_000 });

/** A shop's tax: prices with or without it, shipping taxed or not, up to three US rates of distinct names. */
export const taxRules = fc.record({
  pricesIncludeTax: fc.boolean(),
  taxShipping: fc.boolean(),
  rates: fc.uniqueArray(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 8 }),
      country: fc.constant('US'),
      region: fc.constant(null),
      postalPrefix: fc.constant(null),
      rate: fc.integer({ min: 0, max: rateScale }),
    }),
    { selector: (rate) => rate.name, maxLength: 3 },
  ),
});
