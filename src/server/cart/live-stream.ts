import type { Context } from 'hono';
import type { CartEvent } from '../../shared/api';
import type { Auth } from '../auth/auth';
import type { ChangeEvent } from '../db/change-feed';
import type { Store } from '../db/store';

const encoder = new TextEncoder();
const heartbeatMs = 25_000;

function frame(event: CartEvent): Uint8Array {
  const { type, ...data } = event;
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The live cart: one Server-Sent Events stream per open cart page. Each stream starts with a snapshot
 * and then follows the user's changes; a reconnecting browser simply gets a fresh snapshot.
 */
export class LiveStreams {
  readonly #open = new Set<() => void>();
  readonly #writers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly auth: Auth,
    private readonly store: Store,
  ) {
    const comment = encoder.encode(': keep-alive\n\n');
    this.#heartbeat = setInterval(() => {
      for (const writer of this.#writers) writer.enqueue(comment);
    }, heartbeatMs);
    this.#heartbeat.unref();
  }

  open(c: Context, uid: string): Response {
    const { auth, store } = this;
    const headers = c.req.raw.headers;
    const streams = this;
    /** Ends this stream; `byServer` also closes the response (a cancelled one is already closed). */
    let close = (_byServer = true) => {};

    const body = new ReadableStream<Uint8Array>({
      async start(writer) {
        let live = false;
        const early: ChangeEvent[] = [];
        /** Events are handled one after another, so a resync's snapshot never overtakes a later change. */
        let queue = Promise.resolve();
        const enqueue = (event: ChangeEvent) => {
          queue = queue.then(() => forward(event)).catch(() => close());
        };
        const unsubscribe = store.subscribe(uid, (event) => (live ? enqueue(event) : early.push(event)));
        close = (byServer = true) => {
          if (!streams.#open.delete(close)) return;
          unsubscribe();
          streams.#writers.delete(writer);
          if (byServer) writer.close();
        };
        streams.#open.add(close);

        async function forward(event: ChangeEvent) {
          if (!streams.#open.has(close)) return;
          if (event.type === 'added') writer.enqueue(frame({ type: 'added', item: event.item }));
          else if (event.type === 'removed') writer.enqueue(frame({ type: 'removed', id: event.id }));
          else if (event.type === 'sessions-changed') await checkSession();
          else if (event.type === 'resync' && (await checkSession())) {
            // Changes may have been missed, a session end among them: check the session, then start over.
            const items = await store.cart.list(uid);
            if (streams.#open.has(close)) writer.enqueue(frame({ type: 'snapshot', items }));
          }
        }

        /**
         * False, after telling the page and closing the stream, when this stream's session has ended. A failed
         * check (database unreachable) throws instead: the stream just closes, and the browser reconnects.
         */
        async function checkSession(): Promise<boolean> {
          if (await auth.api.getSession({ headers })) return true;
          if (streams.#open.has(close)) {
            writer.enqueue(frame({ type: 'signed-out' }));
            close();
          }
          return false;
        }

        writer.enqueue(encoder.encode('retry: 1000\n\n'));
        const items = await store.cart.list(uid);
        // The page may have gone while the snapshot was read: then there is nothing left to write to.
        if (!streams.#open.has(close)) return;
        writer.enqueue(frame({ type: 'snapshot', items }));
        streams.#writers.add(writer);
        live = true;
        // Changes that raced the snapshot may already be in it; the page applies them idempotently.
        for (const event of early) enqueue(event);
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
