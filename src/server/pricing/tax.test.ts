import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sumCents } from '../../shared/money';
import { formatRate, rateScale, type TaxRate } from '../../shared/tax';
import { noTax, postalKey, ratesFor, shareRounded, taxLines } from './tax';

const cents = fc.integer({ min: 0, max: 100_000_000 });
const rate = fc.integer({ min: 0, max: rateScale });
/** Up to four rates of names of their own, as ratesFor gives them. */
const rates = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom('VAT', 'State tax', 'County surtax', 'City tax', 'GST'),
    country: fc.constant('US'),
    region: fc.constant(null),
    postalPrefix: fc.constant(null),
    rate,
  }),
  { selector: (r) => r.name, maxLength: 4 },
);

describe('shareRounded', () => {
  // Amounts up to $10,000,000 at rates up to 1,000%: the result is a safe integer.
  it('is the exact quotient rounded to the nearest whole number, halves away from zero', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 1, max: 1e6 }),
        (amount, numerator, denominator) => {
          const exact = BigInt(amount) * BigInt(numerator);
          const rounded = BigInt(shareRounded(amount, numerator, denominator));
          // |exact / d - rounded| <= 1/2, and exactly 1/2 only away from zero.
          const twice = 2n * exact - 2n * rounded * BigInt(denominator);
          const limit = BigInt(denominator);
          expect(twice <= limit && twice >= -limit).toBe(true);
          if (twice === limit) expect(exact < 0n).toBe(true);
          if (twice === -limit) expect(exact > 0n).toBe(true);
        },
      ),
    );
  });

  it('rounds halves away from zero', () => {
    expect(shareRounded(5, 1, 10)).toBe(1);
    expect(shareRounded(-5, 1, 10)).toBe(-1);
    expect(shareRounded(4, 1, 10)).toBe(0);
    expect(shareRounded(15, 1, 10)).toBe(2);
  });
});

describe('taxLines', () => {
  it('in whole cents; added tax is the base times each rate; the total is the net and the tax', () => {
    fc.assert(
      fc.property(cents, cents, fc.boolean(), rates, (goods, shipping, taxShipping, given) => {
        const lines = taxLines(goods, shipping, { pricesIncludeTax: false, taxShipping, rates: given });
        const taxed = goods + (taxShipping ? shipping : 0);
        for (const line of lines) {
          expect(Number.isSafeInteger(line.amountCents)).toBe(true);
          expect(line.included).toBe(false);
          expect(line.baseCents).toBe(taxed);
          // Within half a cent of the exact amount.
          expect(Math.abs(line.amountCents * rateScale - taxed * line.rate)).toBeLessThanOrEqual(rateScale / 2);
        }
        expect(lines.map((line) => line.name)).toEqual(given.filter((r) => r.rate > 0 && taxed > 0).map((r) => r.name));
      }),
    );
  });

  it('with prices that include tax: the base and the lines add up to the amount taxed, to the cent', () => {
    fc.assert(
      fc.property(cents, cents, fc.boolean(), rates, (goods, shipping, taxShipping, given) => {
        const lines = taxLines(goods, shipping, { pricesIncludeTax: true, taxShipping, rates: given });
        const taxed = goods + (taxShipping ? shipping : 0);
        for (const line of lines) {
          expect(line.included).toBe(true);
          expect(Number.isSafeInteger(line.amountCents)).toBe(true);
          expect(line.baseCents + sumCents(lines.map((l) => l.amountCents))).toBe(taxed);
          expect(line.amountCents).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('charges nothing without rates, on nothing, or at a rate of zero', () => {
    expect(taxLines(10000, 2500, noTax)).toEqual([]);
    const vat: TaxRate = { name: 'VAT', country: 'DE', region: null, postalPrefix: null, rate: 19000 };
    expect(taxLines(0, 2500, { pricesIncludeTax: true, taxShipping: false, rates: [vat] })).toEqual([]);
    expect(taxLines(100, 0, { pricesIncludeTax: true, taxShipping: false, rates: [{ ...vat, rate: 0 }] })).toEqual([]);
  });
});

describe('ratesFor', () => {
  const rate = (name: string, region: string | null, postalPrefix: string | null, r: number): TaxRate => ({
    name,
    country: 'US',
    region,
    postalPrefix,
    rate: r,
  });
  const table = [
    rate('Sales tax', null, null, 1000),
    rate('Sales tax', 'US-FL', null, 6000),
    rate('Sales tax', 'US-FL', '334', 6500),
    rate('County surtax', 'US-FL', '33414', 1000),
    rate('VAT', null, null, 19000),
  ];
  table[4] = { ...table[4], country: 'DE' } as TaxRate;
  const place = (region: string | null, postalCode: string | null) => ({ country: 'US', region, postalCode });

  it('takes of each name the most specific rate that matches, and every name that matches', () => {
    expect(ratesFor(table, place('US-FL', '33414')).map((r) => [r.name, r.rate])).toEqual([
      ['Sales tax', 6500],
      ['County surtax', 1000],
    ]);
    expect(ratesFor(table, place('US-FL', '32801')).map((r) => r.rate)).toEqual([6000]);
    expect(ratesFor(table, place('US-NY', '10001')).map((r) => r.rate)).toEqual([1000]);
    expect(ratesFor(table, { country: 'CA', region: null, postalCode: null })).toEqual([]);
    // A prefix needs a postal code; a region rate needs the region.
    expect(ratesFor(table, place(null, null)).map((r) => r.rate)).toEqual([1000]);
  });

  it('compares postal codes without case, spaces or dashes', () => {
    expect(postalKey(' sw1a-1aa ')).toBe('SW1A1AA');
    const london = { name: 'VAT', country: 'GB', region: null, postalPrefix: 'sw1', rate: 20000 };
    expect(ratesFor([london], { country: 'GB', region: null, postalCode: 'SW1A 1AA' })).toEqual([london]);
  });

  it('reads rates as people write them', () => {
    expect(formatRate(7000)).toBe('7%');
    expect(formatRate(8875)).toBe('8.875%');
    expect(formatRate(19000)).toBe('19%');
  });
});
