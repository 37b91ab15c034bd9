import { useEffect, useMemo, useRef, useState } from 'react';
import type { CatalogueProduct } from '../../../shared/api';
import { knownParam, liveStreams } from '../../../shared/live-streams';
import { loadContract } from '../../lib/api';
import { followEvents } from '../../lib/live-events';

const catalogueStream = { ...liveStreams.catalogue, schemas: async () => (await loadContract()).stockEventSchemas };

const keyOf = (itemid: string, size: string) => `${itemid}\u0000${size}`;

export interface LiveOptions {
  /** The version of the loaded products (those the page's HTML came with): the first connection then sends nothing. */
  version?: string;
  /** The list shows only products in stock: a change of stock may take one out of it or bring one in. */
  inStockOnly?: boolean;
  /** Asks for the page's products again (its page of the list, never the whole catalogue). */
  reload(): void;
}

/**
 * The page's products as they change (docs/API.md, "The live stock"): every change of stock, each within a second,
 * on the products shown; the page asked again whenever the owner changes the catalogue, and, for a list of products
 * in stock only, whenever a shown product sells out or another comes back.
 */
export function useLiveCatalogue(loaded: readonly CatalogueProduct[], options: LiveOptions): CatalogueProduct[] {
  // The stream is opened once per page: with the version the page was first loaded with.
  const [firstVersion] = useState(options.version);
  // Stock heard of since the page opened: newer than what a page read before it, as new as what a page read after.
  const [stock, setStock] = useState<ReadonlyMap<string, number>>(() => new Map());
  // What the events are checked against: the products shown now and the choices, without opening the stream anew.
  const now = useRef({ loaded, options });
  now.current = { loaded, options };

  useEffect(
    () =>
      followEvents(
        firstVersion
          ? { ...catalogueStream, firstQuery: `${knownParam}=${encodeURIComponent(firstVersion)}` }
          : catalogueStream,
        (event) => {
          const { loaded: shown, options: current } = now.current;
          if (event.type === 'products') {
            current.reload();
          } else if (event.type === 'snapshot') {
            setStock(new Map(event.stock.map((size) => [keyOf(size.itemid, size.size), size.stock])));
          } else if (event.type === 'stock') {
            setStock((map) => new Map(map).set(keyOf(event.itemid, event.size), event.stock));
            const isShown = shown.some((p) => p.itemid === event.itemid);
            if (current.inStockOnly && (isShown ? event.stock === 0 : event.stock > 0)) current.reload();
          }
        },
      ),
    [firstVersion],
  );

  return useMemo(
    () =>
      loaded.map((product) => ({
        ...product,
        sizes: product.sizes.map(({ size, stock: given }) => ({
          size,
          stock: stock.get(keyOf(product.itemid, size)) ?? given,
        })),
      })),
    [loaded, stock],
  );
}
