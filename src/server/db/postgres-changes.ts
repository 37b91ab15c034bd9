import { sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import type { Change, ChangeFeed } from './change-feed';
import { pgTypes } from './open';
import type { Tables } from './schema';

/**
 * The channel every server of one shop LISTENs on, as SQL: one per schema, since NOTIFY reaches every session of the
 * database, and shops (or test runs) on other schemas of it must not hear this one's changes. An md5 keeps it within
 * PostgreSQL's 63 bytes for any schema's name. See docs/decisions/0008-postgres-listen-notify.md.
 */
const changeChannel = "'piaffe_changes_' || md5(current_schema())";

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; we stay well below. */
export const maxPayloadBytes = 7000;

/**
 * The NOTIFYs sent by one statement: a select's list of columns takes at most 1,664, so a unit with more changes (a
 * batch of the demo data's, docs/decisions/0046-a-big-shop.md) sends them in several, in order.
 */
const notifiesPerSelect = 1000;

/** A change between servers: the sending server (`o`), the topic (`t`), and the event (`e`) or `lost`. */
interface Payload {
  o: string;
  t: string;
  e?: unknown;
  lost?: true;
}

/** The NOTIFY payload of a change; one too big to send tells the topic's listeners that they lost an event. */
export function encodeChange(origin: string, change: Change): string {
  const payload = JSON.stringify({ o: origin, t: change.topic, e: change.event } satisfies Payload);
  if (Buffer.byteLength(payload) <= maxPayloadBytes) return payload;
  return JSON.stringify({ o: origin, t: change.topic, lost: true } satisfies Payload);
}

/** Reads a payload back; anything that is not one of ours is undefined. */
export function decodeChange(payload: string | undefined): Payload | undefined {
  try {
    const value = JSON.parse(payload ?? '');
    if (typeof value?.o === 'string' && typeof value.t === 'string' && ('e' in value || value.lost === true)) {
      return value as Payload;
    }
  } catch {}
  return undefined;
}

const minBackoffMs = 100;
const maxBackoffMs = 5000;
/** How often the listening connection is checked with a round trip, to notice a silently dead one. */
const checkEveryMs = 15_000;

/**
 * Changes between servers on one PostgreSQL database. A unit of work sends its changes with NOTIFY inside
 * its transaction, so they go out on commit and never for a rollback; one dedicated connection per server
 * LISTENs and hands the other servers' changes to the local feed (each server delivers its own at commit).
 * When that connection drops it is reopened with backoff, and every local listener is told it may have lost
 * events, since NOTIFYs sent while nobody listened are gone.
 */
export class PostgresChanges {
  #client: pg.Client | undefined;
  /** The channel's name, read from the database on connecting (`changeChannel`). */
  #channel: string | undefined;
  #closed = false;
  #failures = 0;
  #retry: NodeJS.Timeout | undefined;
  readonly #check: NodeJS.Timeout;
  readonly #firstConnect: Promise<void>;

  constructor(
    private readonly url: string,
    /** This server's id: its own changes come back through LISTEN too, and are skipped. */
    private readonly origin: string,
    private readonly feed: ChangeFeed,
    private readonly log: Logger,
  ) {
    this.#firstConnect = this.#connect();
    this.#check = setInterval(() => void this.#healthCheck(), checkEveryMs);
    this.#check.unref();
  }

  /** Resolves once the first LISTEN is in place; rejects if that first attempt fails (reconnects go on). */
  ready(): Promise<void> {
    return this.#firstConnect;
  }

  /** Sends `changes` to the other servers; call inside the transaction that made them. */
  async send(trx: Transaction<Tables>, changes: readonly Change[]): Promise<void> {
    for (let from = 0; from < changes.length; from += notifiesPerSelect) {
      const notifies = changes
        .slice(from, from + notifiesPerSelect)
        .map((change) => sql`pg_notify(${sql.raw(changeChannel)}, ${encodeChange(this.origin, change)})`);
      await sql`select ${sql.join(notifies)}`.execute(trx);
    }
  }

  #receive(payload: string | undefined): void {
    const change = decodeChange(payload);
    if (!change || change.o === this.origin) return;
    if (change.lost) this.feed.lost(change.t);
    else this.feed.deliver([{ topic: change.t, event: change.e }]);
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
      this.log.warn({ err: error, attempt: this.#failures + 1 }, message);
      this.#scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === this.#channel) this.#receive(message.payload);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(`select ${changeChannel} as channel`);
      this.#channel = rows[0]?.channel;
      // The channel's name is `piaffe_changes_` and hex digits: nothing to quote.
      await client.query(`LISTEN ${this.#channel}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (lost || this.#closed) return;
    listening = true;
    if (this.#failures > 0) this.log.info({ after: this.#failures }, 'change listener reconnected');
    this.#failures = 0;
    // Whatever was sent while nobody listened is gone: every listener starts again from the database.
    this.feed.lostAll();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    const backoff = Math.min(maxBackoffMs, minBackoffMs * 2 ** this.#failures);
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
      await Promise.race([client.query(`LISTEN ${this.#channel}`), timeout]);
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
