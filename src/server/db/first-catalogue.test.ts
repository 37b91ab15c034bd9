import { describe, expect, it } from 'vitest';
import { formatTotal } from '../../shared/money';
import { firstCatalogue as catalogue } from './migrations/0009-owners-catalogue';

describe('the first catalogue', () => {
  it('holds the eight products of the spec, item numbers 1 to 8 in its order', () => {
    expect(catalogue.map((p) => [p.itemid, p.name, p.priceCents])).toEqual([
      ['1', 'Anky Bridle', 30299],
      ['2', 'Albion SLK Saddle', 499000],
      ['3', 'Ariat Westchester Boots', 49999],
      ['4', 'Carlson Barn Jacket', 37900],
      ['5', 'Carlson Tall Boots', 39899],
      ['6', 'Crochet Saddle Blanket', 29900],
      ['7', 'Dakota Barn Jacket', 37900],
      ['8', 'Fellmore Bridle', 34449],
    ]);
  });

  it('gives every product integer cents, a description and its own pictures', () => {
    for (const product of catalogue) {
      expect(Number.isInteger(product.priceCents)).toBe(true);
      expect(product.details.length).toBeGreaterThan(20);
      expect(product.pic).toMatch(/^\/pictures\/[a-z-]+-thumb\.svg$/);
      expect(product.largepic).toBe(product.pic.replace('-thumb', ''));
    }
    expect(new Set(catalogue.map((p) => p.pic)).size).toBe(8);
  });

  it('totals to the cent', () => {
    expect(
      formatTotal(
        catalogue.map((p) => p.priceCents),
        { currency: 'USD', locale: 'en-US' },
      ),
    ).toBe('$7,593.46');
  });
});
