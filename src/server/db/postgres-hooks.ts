import { sql } from 'kysely';
import pg from 'pg';
import { log } from '../http/log';
import { type ChangeEvent, ListenerRegistry } from './change-feed';
import { pgTypes } from './open';
import type { DialectHooks } from './sql-store';

/** The one channel every server LISTENs on. See docs/decisions/0008-postgres-listen-notify.md. */
export const changeChannel = 'piaffe_changes';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; we stay well below. */
export const maxPayloadBytes = 7000;

const eventTypes = new Set<ChangeEvent['type']>(['added', 'removed', 'sessions-changed', 'resync']);

/** The payload of a change: the event itself, or a resync of the user when the event would be too big. */
export function encodeEvent(event: ChangeEvent): string {
  const payload = JSON.stringify(event);
  if (Buffer.byteLength(payload) <= maxPayloadBytes) return payload;
  return JSON.stringify({ uid: event.uid, type: 'resync' } satisfies ChangeEvent);
}

/** Reads a payload back; anything that is not one of our events is ignored. */
export function decodeEvent(payload: string | undefined): ChangeEvent | undefined {
  try {
    const event = JSON.parse(payload ?? '');
    if (typeof event?.uid === 'string' && eventTypes.has(event.type)) return event as ChangeEvent;
  } catch {}
  return undefined;
}

export interface ListenerOptions {
  /** First wait before reconnecting; doubles on every failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often the listening connection is checked with a round trip, to notice a silently dead one. */
  checkEveryMs?: number;
}

/**
 * One dedicated connection per server LISTENs for every change and feeds the local listener registry.
 * When that connection drops it is reopened with backoff, and every local stream is then told to resync,
 * since NOTIFYs sent while nobody listened are gone.
 */
export class ChangeListener {
  readonly registry = new ListenerRegistry();
  #client: pg.Client | undefined;
  #closed = false;
  #failures = 0;
  #retry: NodeJS.Timeout | undefined;
  #check: NodeJS.Timeout | undefined;
  #firstConnect: Promise<void>;
  readonly #minBackoffMs: number;
  readonly #maxBackoffMs: number;

  constructor(
    private readonly url: string,
    options: ListenerOptions = {},
  ) {
    this.#minBackoffMs = options.minBackoffMs ?? 100;
    this.#maxBackoffMs = options.maxBackoffMs ?? 5000;
    this.#firstConnect = this.#connect();
    this.#check = setInterval(() => void this.#healthCheck(), options.checkEveryMs ?? 15_000);
    this.#check.unref();
  }

  /** Resolves once the first LISTEN is in place; rejects if that first attempt fails (reconnects go on). */
  ready(): Promise<void> {
    return this.#firstConnect;
  }

  /** The backend pid of the listening connection, while connected. */
  get pid(): number | undefined {
    return (this.#client as { processID?: number } | undefined)?.processID;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, types: pgTypes });
    this.#client = client;
    let lost = false;
    let listening = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.#closed) return;
      const message = listening ? 'change listener lost its connection' : 'change listener could not connect';
      log('warn', message, { error: error?.message, attempt: this.#failures + 1 });
      this.#scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== changeChannel) return;
      const event = decodeEvent(message.payload);
      if (event) this.registry.dispatch(event);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${changeChannel}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (lost || this.#closed) return;
    listening = true;
    if (this.#failures > 0) log('info', 'change listener reconnected', { after: this.#failures });
    this.#failures = 0;
    // Whatever was sent while nobody listened is gone: every open stream starts again from a snapshot.
    this.registry.resyncAll();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    const backoff = Math.min(this.#maxBackoffMs, this.#minBackoffMs * 2 ** this.#failures);
    this.#failures += 1;
    const wait = backoff / 2 + Math.random() * (backoff / 2);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect().catch(() => {});
    }, wait);
    this.#retry.unref();
  }

  async #healthCheck(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('listener health check timed out')), 5000);
    });
    try {
      // LISTEN again is a no-op round trip, and keeps pg_stat_activity showing what this connection is for.
      await Promise.race([client.query(`LISTEN ${changeChannel}`), timeout]);
    } catch (error) {
      client.emit('error', error);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#check);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}

/**
 * PostgreSQL: a change is a NOTIFY sent inside the transaction that made it, so it goes out on commit
 * and never for a rolled-back change; every server (this one included) hears it through its listener.
 * Adds to one cart are serialised with a transaction-scoped advisory lock on the user.
 */
export function postgresHooks(listener: ChangeListener): DialectHooks {
  return {
    async lockCart(trx, uid) {
      await sql`select pg_advisory_xact_lock(hashtext('piaffe_cart'), hashtext(${uid}))`.execute(trx);
    },
    async publish(trx, event) {
      await sql`select pg_notify(${changeChannel}, ${encodeEvent(event)})`.execute(trx);
    },
    // Streams hear every change through LISTEN, this server's own included; session watchers (the session
    // cache) also hear this server's own changes at once, so its answer never races its own notification.
    afterCommit(events) {
      for (const event of events) listener.registry.tellWatchers(event);
    },
    subscribe: (uid, listener_) => listener.registry.subscribe(uid, listener_),
    watchSessions: (watcher) => listener.registry.watchSessions(watcher),
    close: () => listener.close(),
  };
}
