import { useCallback, useEffect, useState } from 'react';
import type { CartItem } from '../../../shared/api';
import { request } from '../../lib/api';
import { useSession } from '../../lib/session';

const firstRetryMs = 1000;
const maxRetryMs = 30_000;

function without(items: CartItem[], id: string): CartItem[] {
  return items.some((item) => item.id === id) ? items.filter((item) => item.id !== id) : items;
}

function parse<T>(event: MessageEvent): T {
  return JSON.parse(event.data as string) as T;
}

/**
 * The user's cart as the server streams it (docs/API.md, "The live stream"). `items` is null until the
 * first snapshot arrives.
 */
export function useLiveCart() {
  const { signedOut } = useSession();
  const [items, setItems] = useState<CartItem[] | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retryMs = firstRetryMs;
    let stopped = false;

    function connect() {
      const stream = new EventSource('/api/cart/stream');
      source = stream;
      stream.addEventListener('snapshot', (event) => {
        retryMs = firstRetryMs;
        setItems(parse<{ items: CartItem[] }>(event).items);
      });
      stream.addEventListener('added', (event) => {
        const { item } = parse<{ item: CartItem }>(event);
        setItems((current) => (current?.some((row) => row.id === item.id) ? current : [...(current ?? []), item]));
      });
      stream.addEventListener('removed', (event) => {
        const { id } = parse<{ id: string }>(event);
        setItems((current) => current && without(current, id));
      });
      stream.addEventListener('signed-out', () => {
        stop();
        signedOut();
      });
      // EventSource retries a dropped connection itself; it gives up (CLOSED) only on an answer such as a 401.
      stream.addEventListener('error', () => {
        if (stream.readyState === EventSource.CLOSED) recover();
      });
    }

    async function recover() {
      try {
        // A 401 here signs the user out through the api helper; the guard then leaves this page.
        await request('GET', '/api/auth/session');
      } catch {}
      if (stopped) return;
      retryTimer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    }

    function stop() {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
    }

    connect();
    return stop;
  }, [signedOut]);

  const removeLocally = useCallback((id: string) => setItems((current) => current && without(current, id)), []);

  return { items, removeLocally };
}
