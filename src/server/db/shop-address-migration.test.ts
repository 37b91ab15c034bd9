import { describe, expect, it } from 'vitest';
import { shopAddressText } from '../../shared/address';
import { shopAddressParts } from './migrations/0034-shop-address-in-parts';

describe("migration 0034's reading of the shop's address", () => {
  it.each([
    ['12 Arena Lane, Wellington, FL 33414', '12 Arena Lane', 'Wellington', 'US-FL', '33414'],
    ['1 Main St, Unit 4, Lexington, KY 40507-1234', '1 Main St, Unit 4', 'Lexington', 'US-KY', '40507-1234'],
    ['Reitweg 3, 48143 Münster', 'Reitweg 3', '48143 Münster', '', ''],
    ['The Yard', 'The Yard', '', '', ''],
    // Not a state: no state is made up.
    ['1 Main St, Springfield, ZZ 12345', '1 Main St, Springfield', 'ZZ 12345', '', ''],
  ])('%s', (text, line1, city, region, postalCode) => {
    const parts = shopAddressParts(text);
    expect(parts).toEqual({ line1, line2: '', city, region, postalCode, country: 'US' });
    expect(shopAddressText(parts, 'en-US')).toBe(text);
  });

  it('keeps an address longer than a line in two lines of at most 100, split at a comma', () => {
    const long = `${'a'.repeat(60)}, ${'b'.repeat(60)}, ${'c'.repeat(30)}, Town`;
    const parts = shopAddressParts(long);
    expect(parts.line1).toBe('a'.repeat(60));
    expect(parts.line2).toBe(`${'b'.repeat(60)}, ${'c'.repeat(30)}`);
    expect(parts.city).toBe('Town');
  });
});
