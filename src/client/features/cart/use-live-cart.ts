import { useCallback, useEffect, useState } from 'react';
import type { CartItem } from '../../../shared/api';
import { knownParam, liveStreams } from '../../../shared/live-streams';
import { loadContract } from '../../lib/api';
import { followEvents } from '../../lib/live-events';
import { takeFromPage } from '../../lib/page-data';

function without(items: CartItem[], id: string): CartItem[] {
  return items.some((item) => item.id === id) ? items.filter((item) => item.id !== id) : items;
}

const cartStream = { ...liveStreams.cart, schemas: async () => (await loadContract()).cartEventSchemas };

/**
 * The user's cart as the server streams it (docs/API.md, "The live stream"). `items` is null until the
 * first snapshot arrives, unless the page's HTML came with the cart: then the stream's first connection names its
 * version and sends no snapshot while the cart is still so (ADR 0028).
 */
export function useLiveCart() {
  const [fromPage] = useState(() => takeFromPage('cart'));
  const [items, setItems] = useState<CartItem[] | null>(fromPage?.items ?? null);

  useEffect(
    () =>
      followEvents(
        fromPage ? { ...cartStream, firstQuery: `${knownParam}=${encodeURIComponent(fromPage.version)}` } : cartStream,
        (event) => {
          switch (event.type) {
            case 'snapshot':
              setItems(event.items);
              break;
            case 'added': {
              const { item } = event;
              setItems((current) =>
                current?.some((row) => row.id === item.id) ? current : [...(current ?? []), item],
              );
              break;
            }
            case 'removed':
              setItems((current) => current && without(current, event.id));
              break;
          }
        },
      ),
    [fromPage],
  );

  const removeLocally = useCallback((id: string) => setItems((current) => current && without(current, id)), []);

  return { items, removeLocally };
}
