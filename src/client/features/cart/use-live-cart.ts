import { useCallback, useEffect, useState } from 'react';
import { type CartEvent, type CartEventType, type CartItem, cartEventSchemas, endpoints } from '../../../shared/api';
import { call } from '../../lib/api';
import { signedOut } from '../../lib/session';

const firstRetryMs = 1000;
const maxRetryMs = 30_000;
const eventTypes = Object.keys(cartEventSchemas) as CartEventType[];

function without(items: CartItem[], id: string): CartItem[] {
  return items.some((item) => item.id === id) ? items.filter((item) => item.id !== id) : items;
}

/** An event of the stream, checked against its schema; undefined when it does not match. */
function parseCartEvent(type: CartEventType, data: unknown): CartEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(String(data));
  } catch {
    return undefined;
  }
  const fields = cartEventSchemas[type].safeParse(json);
  // The schema of `type` has checked the fields; TypeScript cannot pair the two through the lookup.
  return fields.success ? ({ type, ...fields.data } as CartEvent) : undefined;
}

/**
 * The user's cart as the server streams it (docs/API.md, "The live stream"). `items` is null until the
 * first snapshot arrives.
 */
export function useLiveCart() {
  const [items, setItems] = useState<CartItem[] | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retryMs = firstRetryMs;
    let stopped = false;

    function apply(event: CartEvent) {
      switch (event.type) {
        case 'snapshot':
          retryMs = firstRetryMs;
          setItems(event.items);
          break;
        case 'added': {
          const { item } = event;
          setItems((current) => (current?.some((row) => row.id === item.id) ? current : [...(current ?? []), item]));
          break;
        }
        case 'removed':
          setItems((current) => current && without(current, event.id));
          break;
        case 'signed-out':
          stop();
          signedOut();
          break;
      }
    }

    function connect() {
      const stream = new EventSource(endpoints.cartStream.path);
      source = stream;
      for (const type of eventTypes) {
        stream.addEventListener(type, (message) => {
          const event = parseCartEvent(type, message.data);
          if (event) return apply(event);
          // An event we cannot read may have been a change: the cart could be out of step from here on. Treated
          // as a broken connection, the page reconnects and starts again from a fresh snapshot (with the usual
          // back-off, so a server that keeps sending it is not hammered); ignoring it could leave a stale cart.
          stream.close();
          void recover();
        });
      }
      // EventSource retries a dropped connection itself; it gives up (CLOSED) only on an answer such as a 401.
      stream.addEventListener('error', () => {
        if (stream.readyState === EventSource.CLOSED) void recover();
      });
    }

    async function recover() {
      try {
        // A 401 here signs the user out through the API client; the guard then leaves this page.
        await call('session');
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
  }, []);

  const removeLocally = useCallback((id: string) => setItems((current) => current && without(current, id)), []);

  return { items, removeLocally };
}
