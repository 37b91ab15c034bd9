import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { CartEvent } from '../../shared/api';
import type { AppEnv } from '../app-env';
import type { Session, Sessions } from '../auth/sessions';
import type { ChangeFeed, Lost } from '../db/change-feed';
import { HttpError } from '../http/errors';
import type { Logger } from '../log';
import { type CartChange, type CartStore, cartTopic } from './cart-store';

/** How many streams may be open, and how far one may fall behind (docs/SECURITY.md, "Live streams"). */
const streamLimits = {
  /** Per log-in: more than a browser opens for its tabs (six connections per host over HTTP/1.1). */
  perSession: 10,
  /** Unsent data beyond this means the reader is gone or too slow: the stream is cut, the page reconnects. */
  maxUnsentBytes: 64 * 1024,
  heartbeatMs: 25_000,
};

const eventStreamHeaders = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

function frame(event: CartEvent): string {
  const { type, ...data } = event;
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface LiveStreamParts {
  feed: ChangeFeed;
  cart: CartStore;
  sessions: Sessions;
  log: Logger;
  /** Sent with every stream, as with every other response. */
  securityHeaders: Readonly<Record<string, string>>;
  /** Streams this server keeps open at most (MAX_LIVE_STREAMS). */
  maxStreams: number;
}

/**
 * One open cart page: a Server-Sent Events stream written straight to Node's response. It starts with a
 * snapshot and then follows the rider's changes, one after another, so a fresh snapshot never overtakes a
 * later change. Every way it can end (the page goes, the session ends, the reader falls behind, a failed
 * read, shutdown) goes through `end`.
 */
class CartStream {
  #queue: Promise<void> = Promise.resolve();
  #stops: Array<() => void> = [];
  #ended = false;

  constructor(
    private readonly streams: LiveStreams,
    private readonly parts: LiveStreamParts,
    private readonly res: ServerResponse,
    readonly session: Session,
  ) {}

  start(): void {
    const { feed, sessions } = this.parts;
    this.#stops.push(
      feed.subscribe(cartTopic(this.session.user.uid), (change) => this.#then(() => this.#forward(change))),
      sessions.watch(this.session, {
        ended: () => {
          this.write(frame({ type: 'signed-out' }));
          this.end();
        },
        // The database could not say (it is unreachable): the page reconnects and its session is checked then.
        uncertain: () => this.end(),
      }),
    );
    this.res.once('close', () => this.end());
    this.write('retry: 1000\n\n');
    // Subscribed first, so a change that races the snapshot is applied after it (idempotently, by the page).
    this.#then(() => this.#snapshot());
  }

  #then(task: () => Promise<void> | void): void {
    this.#queue = this.#queue
      .then(() => (this.#ended ? undefined : task()))
      .catch((err) => {
        this.parts.log.warn({ err }, 'live stream failed; the page reconnects');
        this.end();
      });
  }

  async #snapshot(): Promise<void> {
    const items = await this.parts.cart.list(this.session.user.uid);
    this.write(frame({ type: 'snapshot', items }));
  }

  async #forward(change: CartChange | Lost): Promise<void> {
    if (change.type === 'added') this.write(frame({ type: 'added', item: change.item }));
    else if (change.type === 'removed') this.write(frame({ type: 'removed', id: change.id }));
    else if (change.type === 'emptied') this.write(frame({ type: 'snapshot', items: [] }));
    // Changes may have been missed: start over from the database.
    else await this.#snapshot();
  }

  write(text: string): void {
    if (this.#ended) return;
    if (this.res.writableLength > streamLimits.maxUnsentBytes) {
      this.end('cut');
      return;
    }
    this.res.write(text);
  }

  /** The one way a stream ends: unsubscribe, forget it, and end the response (`cut`: drop what is unsent). */
  end(how: 'end' | 'cut' = 'end'): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const stop of this.#stops) stop();
    this.streams.forget(this);
    if (how === 'cut') this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
  }
}

/** Every open live cart stream of this server, capped per session and in all. */
export class LiveStreams {
  readonly #all = new Set<CartStream>();
  readonly #bySession = new Map<string, Set<CartStream>>();
  readonly #heartbeat: NodeJS.Timeout;
  #closing = false;
  #opened = 0;

  constructor(private readonly parts: LiveStreamParts) {
    this.#heartbeat = setInterval(() => {
      for (const stream of this.#all) stream.write(': keep-alive\n\n');
    }, streamLimits.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** The number of open streams. */
  get size(): number {
    return this.#all.size;
  }

  /** The number of streams opened since the server started. */
  get opened(): number {
    return this.#opened;
  }

  /** Answers GET on the stream route with a new stream; HEAD with the headers alone, building nothing. */
  open(c: Context<AppEnv>, session: Session): Response {
    const headers = { ...this.parts.securityHeaders, ...eventStreamHeaders };
    if (c.req.method === 'HEAD') return new Response(null, { headers });
    if (this.#closing) throw new HttpError('server/unavailable');
    if ((this.#bySession.get(session.id)?.size ?? 0) >= streamLimits.perSession) {
      throw new HttpError('cart/too-many-streams', undefined, { 'Retry-After': '30' });
    }
    if (this.#all.size >= this.parts.maxStreams) {
      throw new HttpError('server/too-many-streams', undefined, { 'Retry-After': '30' });
    }
    const res = c.env.outgoing;
    res.writeHead(200, headers);
    this.#opened++;
    const stream = new CartStream(this, this.parts, res, session);
    this.#all.add(stream);
    let ofSession = this.#bySession.get(session.id);
    if (!ofSession) {
      ofSession = new Set();
      this.#bySession.set(session.id, ofSession);
    }
    ofSession.add(stream);
    stream.start();
    return RESPONSE_ALREADY_SENT;
  }

  /** Called by a stream as it ends. */
  forget(stream: CartStream): void {
    this.#all.delete(stream);
    const ofSession = this.#bySession.get(stream.session.id);
    ofSession?.delete(stream);
    if (ofSession?.size === 0) this.#bySession.delete(stream.session.id);
  }

  /** Ends every stream, for a graceful shutdown; browsers reconnect to another server. */
  closeAll(): void {
    this.#closing = true;
    clearInterval(this.#heartbeat);
    for (const stream of [...this.#all]) stream.end();
  }
}
