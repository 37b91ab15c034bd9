import { beforeAll, describe, expect, it } from 'vitest';
import { firstWeights } from '../../src/server/db/migrations/0016-product-weights';
import type { AdminProduct } from '../../src/shared/products';
import type { Client } from '../support/client';
import { expectError } from '../support/expect-error';
import { shopWithOwner } from '../support/shop-with-owner';

/** Products' weights in grams (docs/product.md §18), on the owner's product form. */
// One shop and its owner for the file's tests (test/support/shop-with-owner.ts).
const shop = shopWithOwner();
let owner: Client;
beforeAll(() => {
  ({ owner } = shop);
});

async function product(itemid: string): Promise<{ product: AdminProduct; history: { what: string }[] }> {
  return (await owner.json('GET', `/api/admin/products/${itemid}`)).body;
}

function form(p: AdminProduct, changes: Record<string, unknown> = {}) {
  const { name, details, priceCents, weightGrams, shown, version } = p;
  const sizes = p.sizes.map((s) => ({ size: s.size, stock: s.stock, stockShown: s.stock }));
  return { name, details, priceCents, weightGrams, shown, sizes, version, ...changes };
}

describe("products' weights", () => {
  it('the eight start with plausible weights', async () => {
    const { products } = (await owner.json('GET', '/api/admin/products')).body as { products: AdminProduct[] };
    expect(Object.fromEntries(products.map((p) => [p.itemid, p.weightGrams]))).toEqual(firstWeights);
    // The saddle is the heaviest, a bridle under a kilogram.
    expect(firstWeights['2']).toBe(7000);
    expect(firstWeights['1']).toBeLessThan(1000);
  });

  it('the owner changes a weight; the history says so; a form without one keeps it', async () => {
    const before = (await product('6')).product;
    const saved = await owner.json('PUT', '/api/admin/products/6', form(before, { weightGrams: 750 }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.product.weightGrams).toBe(750);
    const { history } = await product('6');
    expect(history[0]?.what).toBe(`Weight ${before.weightGrams} g → 750 g`);
    const { weightGrams: _, ...withoutWeight } = form(saved.body.product, { priceCents: 29500 });
    const kept = await owner.json('PUT', '/api/admin/products/6', withoutWeight);
    expect(kept.body.product).toMatchObject({ weightGrams: 750, priceCents: 29500 });
  });

  it('a new product weighs what the owner says, or nothing', async () => {
    const base = { details: '', priceCents: 1000, shown: false, sizes: [{ size: 'One size', stock: 1 }] };
    const weighed = await owner.json('POST', '/api/admin/products', { ...base, name: 'Numnah', weightGrams: 400 });
    expect(weighed.body.product.weightGrams).toBe(400);
    const unweighed = await owner.json('POST', '/api/admin/products', { ...base, name: 'Hoof pick' });
    expect(unweighed.body.product.weightGrams).toBe(0);
  });

  it('a weight that is not a whole number of grams from 0 to 100 kg is refused next to its field', async () => {
    const p = (await product('1')).product;
    const cases: [unknown, string][] = [
      [-1, 'Weight cannot be below 0.'],
      [1.5, 'Weight must be a whole number of grams.'],
      ['900', 'Weight must be a whole number of grams.'],
      [100_001, 'Weight must be at most 100,000 g.'],
    ];
    for (const [weightGrams, message] of cases) {
      const reply = await owner.json('PUT', '/api/admin/products/1', form(p, { weightGrams }));
      expectError(reply, 400, 'product/invalid', message);
      expect(reply.body.field).toBe('weightGrams');
    }
    expect((await product('1')).product.weightGrams).toBe(firstWeights['1']);
  });
});
