import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { PublicShop } from '../../shared/settings';
import type { AppEnv } from '../app-env';
import type { Session, Sessions } from '../auth/sessions';
import type { ChangeFeed, Lost, Topic } from '../db/change-feed';
import { addressGroup, clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { Logger } from '../log';
import { settingsTopic } from '../settings/changes';

/** How many streams may be open, and how far one may fall behind (docs/SECURITY.md, "Live streams"). */
const streamLimits = {
  /** Per log-in, of every kind together: more than a browser opens for its tabs (six connections per host). */
  perSession: 10,
  /** Per account, over all its log-ins: a rider's phone, laptop and tablet, each with a few tabs. */
  perAccount: 20,
  /** Per client address (an IPv6 /64): a yard or a household behind one router, several riders each. */
  perAddress: 40,
  /** Visitors' streams per client address (docs/product.md §23): half of what the address may open in all. */
  perVisitorAddress: 20,
  /** The share of MAX_LIVE_STREAMS that only owners' streams may take, so riders never starve the back office. */
  ownerShare: 0.1,
  /** Unsent data beyond this means the reader is gone or too slow: the stream is cut, the page reconnects. */
  maxUnsentBytes: 64 * 1024,
  heartbeatMs: 25_000,
};

const eventStreamHeaders = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

/** One Server-Sent Event: its name and the JSON of its data. */
/**
 * The version of what a page's HTML shows first (the home page's products, the cart's rows): a stream opened with it as
 * its `known` query (src/shared/live-streams.ts) sends no first snapshot while it is still the server's.
 */
export function versionOf(shown: unknown): string {
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 22);
}

export function sseFrame(type: string, data: object = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * What a stream follows: a topic of the change feed, and the frames it sends for it; or, without a topic, only its
 * session's events (the account stream).
 */
export interface StreamSource<Event> {
  topic?: Topic<Event>;
  /** The first frame, sent once the stream is subscribed (so no change slips in before it). */
  start(): Promise<string>;
  /**
   * The frame of a committed change; `lost` when changes may have been missed (start again from the database).
   * `null` ends the stream: its reader may no longer follow it.
   */
  frame?(change: Event | Lost): Promise<string | null> | string | null;
}

export interface LiveStreamParts {
  feed: ChangeFeed;
  sessions: Sessions;
  log: Logger;
  /** Streams this server keeps open at most (MAX_LIVE_STREAMS). */
  maxStreams: number;
  /** TRUST_PROXY: whose address a stream counts under (client-address.ts). */
  trustProxy: boolean;
  /** What every page shows of the shop's settings (the footer), sent again on every stream when they are saved. */
  shop: () => Promise<PublicShop>;
}

/**
 * One open page's stream: Server-Sent Events written straight to Node's response. It starts with its source's first
 * frame and then follows the source's topic, one change after another, so a fresh start never overtakes a later
 * change. Every way it can end (the page goes, the session ends, the reader falls behind, a failed read, shutdown)
 * goes through `end`.
 */
class LiveStream<Event> {
  #queue: Promise<void> = Promise.resolve();
  #stops: Array<() => void> = [];
  #ended = false;

  constructor(
    private readonly streams: LiveStreams,
    private readonly parts: LiveStreamParts,
    private readonly res: ServerResponse,
    /** The stream's log-in; none for a visitor of a shop open to everyone. */
    readonly session: Session | undefined,
    /** What the stream counts against: its log-in, account and address (`LiveStreams.open`). */
    readonly keys: readonly string[],
    private readonly source: StreamSource<Event>,
  ) {}

  start(): void {
    const { feed, sessions } = this.parts;
    const { topic, frame } = this.source;
    if (topic && frame) {
      this.#stops.push(
        feed.subscribe(topic, (change) =>
          this.#then(async () => {
            const text = await frame(change);
            if (text === null) this.end();
            else this.write(text);
          }),
        ),
      );
    }
    if (this.session) {
      this.#stops.push(
        sessions.watch(this.session, {
          ended: () => this.signedOut(),
          // The database could not say (it is unreachable): the page reconnects and its session is checked then.
          uncertain: () => this.end(),
          // In turn with the stream's own frames, so that the page hears of it after what came before.
          changed: () => this.#then(async () => this.write(sseFrame('account'))),
        }),
      );
    }
    // A save of the settings, on any server (or changes that may have been missed): the shop as it now is. A visitor's
    // stream ends with it when the shop is no longer open to everyone, as a rider's does when the log-in ends.
    this.#stops.push(
      feed.subscribe(settingsTopic, () =>
        this.#then(async () => {
          const shop = await this.parts.shop();
          this.write(sseFrame('shop', shop));
          if (!this.session && shop.access.openTo !== 'everyone') this.signedOut();
        }),
      ),
    );
    this.res.once('close', () => this.end());
    this.write('retry: 1000\n\n');
    this.#then(async () => this.write(await this.source.start()));
  }

  signedOut(): void {
    this.write(sseFrame('signed-out'));
    this.end();
  }

  #then(task: () => Promise<void>): void {
    this.#queue = this.#queue
      .then(() => (this.#ended ? undefined : task()))
      .catch((err) => {
        this.parts.log.warn({ err }, 'live stream failed; the page reconnects');
        this.end();
      });
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

type AnyStream = LiveStream<unknown>;

/**
 * Every open live stream of this server (home and cart pages, the owners' order list), capped per log-in, per account, per
 * client address and in all; riders' streams leave a share of the total to owners.
 */
export class LiveStreams {
  readonly #all = new Set<AnyStream>();
  /** How many open streams count against each key: `session:<id>`, `account:<uid>`, `visitors:<group>`, `address:<group>`. */
  readonly #counts = new Map<string, number>();
  readonly #heartbeat: NodeJS.Timeout;
  /** Streams riders' pages may take: MAX_LIVE_STREAMS less the owners' share. */
  readonly #ridersMax: number;
  #closing = false;
  #opened = 0;

  constructor(private readonly parts: LiveStreamParts) {
    this.#ridersMax = parts.maxStreams - Math.floor(parts.maxStreams * streamLimits.ownerShare);
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

  /**
   * Answers GET on a stream route with a new stream of `source`; HEAD with the headers alone, building nothing.
   * `session`: the log-in it counts against, or none for a visitor (the access gate let the visitor through, so the
   * shop is open to everyone). `forOwner`: the route has checked the owner's role, and the stream may take the owners'
   * share.
   */
  open<Event>(
    c: Context<AppEnv>,
    session: Session | undefined,
    source: () => StreamSource<Event>,
    { forOwner = false }: { forOwner?: boolean } = {},
  ): Response {
    if (c.req.method === 'HEAD') return new Response(null, { headers: eventStreamHeaders });
    if (this.#closing) throw new HttpError('server/unavailable');
    const address = addressGroup(clientAddress(c, this.parts.trustProxy));
    const counted: ReadonlyArray<readonly [string, number, string]> = [
      ...(session
        ? ([
            [`session:${session.id}`, streamLimits.perSession, 'this log-in'],
            [`account:${session.user.uid}`, streamLimits.perAccount, 'this account'],
          ] as const)
        : ([[`visitors:${address}`, streamLimits.perVisitorAddress, 'visitors of your network']] as const)),
      [`address:${address}`, streamLimits.perAddress, 'your network'],
    ];
    for (const [key, cap, whose] of counted) {
      if ((this.#counts.get(key) ?? 0) >= cap) {
        const message = `Too many live pages are open for ${whose}. Close some and try again.`;
        throw new HttpError('stream/too-many', message, { 'Retry-After': '30' });
      }
    }
    const keys = counted.map(([key]) => key);
    if (this.#all.size >= (forOwner ? this.parts.maxStreams : this.#ridersMax)) {
      throw new HttpError('server/too-many-streams', undefined, { 'Retry-After': '30' });
    }
    const res = c.env.outgoing;
    res.writeHead(200, eventStreamHeaders);
    this.#opened++;
    const stream = new LiveStream(this, this.parts, res, session, keys, source()) as AnyStream;
    this.#all.add(stream);
    for (const key of keys) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    stream.start();
    return RESPONSE_ALREADY_SENT;
  }

  /** Called by a stream as it ends. */
  forget(stream: AnyStream): void {
    if (!this.#all.delete(stream)) return;
    for (const key of stream.keys) {
      const left = (this.#counts.get(key) ?? 1) - 1;
      if (left > 0) this.#counts.set(key, left);
      else this.#counts.delete(key);
    }
  }

  /** Ends every stream, for a graceful shutdown; browsers reconnect to another server. */
  closeAll(): void {
    this.#closing = true;
    clearInterval(this.#heartbeat);
    for (const stream of [...this.#all]) stream.end();
  }
}
