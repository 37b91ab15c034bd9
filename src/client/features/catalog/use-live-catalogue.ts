import { useEffect, useMemo, useState } from 'react';
import type { CatalogueProduct } from '../../../shared/api';
import { loadContract } from '../../lib/api';
import { followEvents } from '../../lib/live-events';

async function catalogueStream() {
  const { endpoints, stockEventSchemas } = await loadContract();
  return { path: endpoints.catalogueStream.path, schemas: stockEventSchemas };
}

const keyOf = (itemid: string, size: string) => `${itemid}\u0000${size}`;

/**
 * The products as the server streams them (docs/API.md, "The live stock"): the ones the page was loaded with until
 * the stream says otherwise; then the owner's products (their order, names, prices, pictures and sizes) whenever the
 * owner changes them, and every change of stock, each within a second. The stream, sending the products again each
 * time it connects, stays the word on them even when the page's data is loaded again.
 */
export function useLiveCatalogue(loaded: readonly CatalogueProduct[]): CatalogueProduct[] {
  const [products, setProducts] = useState(loaded);
  // Stock heard of since the products were last given whole: it wins over theirs.
  const [stock, setStock] = useState<ReadonlyMap<string, number>>(() => new Map());

  useEffect(
    () =>
      followEvents(catalogueStream, (event) => {
        if (event.type === 'products') {
          // The products come with their stock as it was when they were read, after every stock event before them.
          setProducts(event.products);
          setStock(new Map());
        } else if (event.type === 'snapshot') {
          setStock(new Map(event.stock.map((size) => [keyOf(size.itemid, size.size), size.stock])));
        } else if (event.type === 'stock') {
          setStock((current) => new Map(current).set(keyOf(event.itemid, event.size), event.stock));
        }
      }),
    [],
  );

  return useMemo(
    () =>
      products.map((product) => ({
        ...product,
        sizes: product.sizes.map(({ size, stock: given }) => ({
          size,
          stock: stock.get(keyOf(product.itemid, size)) ?? given,
        })),
      })),
    [products, stock],
  );
}
