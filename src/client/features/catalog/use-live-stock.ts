import { useEffect, useMemo, useState } from 'react';
import type { CatalogueProduct } from '../../../shared/api';
import { loadContract } from '../../lib/api';
import { followEvents } from '../../lib/live-events';

async function stockStream() {
  const { endpoints, stockEventSchemas } = await loadContract();
  return { path: endpoints.catalogueStream.path, schemas: stockEventSchemas };
}

const keyOf = (itemid: string, size: string) => `${itemid}\u0000${size}`;

/**
 * The products with their stock as the server streams it (docs/API.md, "The live stock"): the stock the page was
 * loaded with until the stream's first snapshot, then every change, within a second of its order.
 */
export function useLiveStock(products: readonly CatalogueProduct[]): CatalogueProduct[] {
  const [stock, setStock] = useState<ReadonlyMap<string, number>>(() => new Map());

  useEffect(
    () =>
      followEvents(stockStream, (event) => {
        if (event.type === 'snapshot') {
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
        sizes: product.sizes.map(({ size, stock: loaded }) => ({
          size,
          stock: stock.get(keyOf(product.itemid, size)) ?? loaded,
        })),
      })),
    [products, stock],
  );
}
