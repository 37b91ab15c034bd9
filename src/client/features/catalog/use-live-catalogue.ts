import { useEffect, useMemo, useState } from 'react';
import type { CatalogueProduct } from '../../../shared/api';
import { knownCatalogueParam, liveStreams } from '../../../shared/live-streams';
import { loadContract } from '../../lib/api';
import { followEvents } from '../../lib/live-events';

const catalogueStream = { ...liveStreams.catalogue, schemas: async () => (await loadContract()).stockEventSchemas };

const keyOf = (itemid: string, size: string) => `${itemid}\u0000${size}`;

/**
 * The products as the server streams them (docs/API.md, "The live stock"): the ones the page was loaded with until
 * the stream says otherwise; then the owner's products (their order, names, prices, pictures and sizes) whenever the
 * owner changes them, and every change of stock, each within a second. The stream, sending the products again each
 * time it connects, stays the word on them even when the page's data is loaded again. Given the `version` of the
 * loaded products (those the page's HTML came with), its first connection sends nothing while they are still the
 * shop's.
 */
export function useLiveCatalogue(loaded: readonly CatalogueProduct[], version?: string): CatalogueProduct[] {
  const [products, setProducts] = useState(loaded);
  // The stream is opened once per page: with the version the page was first loaded with.
  const [firstVersion] = useState(version);
  // Stock heard of since the products were last given whole: it wins over theirs.
  const [stock, setStock] = useState<ReadonlyMap<string, number>>(() => new Map());

  useEffect(
    () =>
      followEvents(
        firstVersion
          ? { ...catalogueStream, firstQuery: `${knownCatalogueParam}=${encodeURIComponent(firstVersion)}` }
          : catalogueStream,
        (event) => {
          if (event.type === 'products') {
            // The products come with their stock as it was when they were read, after every stock event before them.
            setProducts(event.products);
            setStock(new Map());
          } else if (event.type === 'snapshot') {
            setStock(new Map(event.stock.map((size) => [keyOf(size.itemid, size.size), size.stock])));
          } else if (event.type === 'stock') {
            setStock((current) => new Map(current).set(keyOf(event.itemid, event.size), event.stock));
          }
        },
      ),
    [firstVersion],
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
