import type { Context } from 'hono';
import type { CartEvent } from '../../shared/api';
import type { Session, Sessions } from '../auth/sessions';
import type { ChangeFeed, Lost } from '../db/change-feed';
import { type CartChange, type CartStore, cartTopic } from './cart-store';

const encoder = new TextEncoder();
const heartbeatMs = 25_000;

function frame(event: CartEvent): Uint8Array {
  const { type, ...data } = event;
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The live cart: one Server-Sent Events stream per open cart page. Each stream starts with a snapshot
 * and then follows the rider's changes; a reconnecting browser simply gets a fresh snapshot.
 */
export class LiveStreams {
  readonly #open = new Set<() => void>();
  readonly #writers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly cart: CartStore,
    private readonly sessions: Sessions,
  ) {
    const comment = encoder.encode(': keep-alive\n\n');
    this.#heartbeat = setInterval(() => {
      for (const writer of this.#writers) writer.enqueue(comment);
    }, heartbeatMs);
    this.#heartbeat.unref();
  }

  open(_c: Context, session: Session): Response {
    const { feed, cart, sessions } = this;
    const uid = session.user.uid;
    const streams = this;
    /** Ends this stream; `byServer` also closes the response (a cancelled one is already closed). */
    let close = (_byServer = true) => {};

    const body = new ReadableStream<Uint8Array>({
      async start(writer) {
        let live = false;
        const early: Array<CartChange | Lost> = [];
        /** Changes are handled one after another, so a fresh snapshot never overtakes a later change. */
        let queue = Promise.resolve();
        const enqueue = (change: CartChange | Lost) => {
          queue = queue.then(() => forward(change)).catch(() => close());
        };
        const unsubscribe = feed.subscribe(cartTopic(uid), (change) => (live ? enqueue(change) : early.push(change)));
        const unwatch = sessions.watch(session, {
          ended() {
            if (!streams.#open.has(close)) return;
            writer.enqueue(frame({ type: 'signed-out' }));
            close();
          },
          // The database could not say (it is unreachable): the stream closes and the browser reconnects.
          uncertain: () => close(),
        });
        close = (byServer = true) => {
          if (!streams.#open.delete(close)) return;
          unsubscribe();
          unwatch();
          streams.#writers.delete(writer);
          if (byServer) writer.close();
        };
        streams.#open.add(close);

        async function snapshot() {
          const items = await cart.list(uid);
          if (streams.#open.has(close)) writer.enqueue(frame({ type: 'snapshot', items }));
        }

        async function forward(change: CartChange | Lost) {
          if (!streams.#open.has(close)) return;
          if (change.type === 'added') writer.enqueue(frame({ type: 'added', item: change.item }));
          else if (change.type === 'removed') writer.enqueue(frame({ type: 'removed', id: change.id }));
          else if (change.type === 'emptied') writer.enqueue(frame({ type: 'snapshot', items: [] }));
          // Changes may have been missed: start over from the database.
          else await snapshot();
        }

        writer.enqueue(encoder.encode('retry: 1000\n\n'));
        await snapshot();
        // The page may have gone while the snapshot was read: then there is nothing left to write to.
        if (!streams.#open.has(close)) return;
        streams.#writers.add(writer);
        live = true;
        // Changes that raced the snapshot may already be in it; the page applies them idempotently.
        for (const change of early) enqueue(change);
        await queue;
      },
      cancel() {
        close(false);
      },
    });

    return new Response(body, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      },
    });
  }

  /** Ends every stream, for a graceful shutdown; browsers reconnect to another server. */
  closeAll(): void {
    clearInterval(this.#heartbeat);
    for (const close of [...this.#open]) close();
  }
}
