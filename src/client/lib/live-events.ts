import type { z } from 'zod';
import { readyEvent } from '../../shared/live-streams';
import type { PublicShop } from '../../shared/settings';
import { call } from './api';
import { refreshSession, signedOut } from './session';
import { setShop } from './shop';

const firstRetryMs = 1000;
const maxRetryMs = 30_000;

/**
 * A stream's event schemas, by SSE event name; every stream also has the session's events (`sessionEventSchemas`),
 * handled here.
 */
type Schemas = Record<string, z.ZodType>;

/** An event of a stream: its name as `type`, and its checked fields. */
export type EventOf<S extends Schemas> = { [T in keyof S & string]: { type: T } & z.infer<S[T]> }[keyof S & string];

/**
 * A stream to follow: where it is and its event names (src/shared/live-streams.ts), and its events' schemas, loaded with
 * the API's contract when the first event that carries fields arrives, not with the page: a stream that stays quiet,
 * or says only `ready`, costs no zod.
 */
export interface LiveStream<S extends Schemas> {
  path: string;
  events: readonly (keyof S & string)[];
  schemas: () => Promise<S>;
  /** A query for the first connection only (the catalogue's `known`); a reconnection may have missed changes. */
  firstQuery?: string;
}

/**
 * Follows a live stream of the server (docs/API.md, "Live streams") until the returned function is called: each
 * event checked against its schema and handed to `apply`, in the order they came. A dropped connection is reopened
 * (EventSource does that); a refused one after a check of the session, with a back-off; an event that cannot be read
 * is treated as a broken connection, since it may have been a change: the stream starts again from a fresh snapshot.
 * `signed-out` signs the browser out, and the guards leave the page; `account` asks the server for the session again;
 * `shop` brings the shop's details as the owner saved them (the footer follows).
 */
export function followEvents<S extends Schemas>(stream: LiveStream<S>, apply: (event: EventOf<S>) => void): () => void {
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = firstRetryMs;
  let stopped = false;
  let schemas: Promise<S> | undefined;
  // Events wait here for the schemas (loaded once), so that they are applied in the order they came.
  let pending: Promise<void> = Promise.resolve();
  let query = stream.firstQuery ? `?${stream.firstQuery}` : '';

  function parse(schema: z.ZodType, data: unknown): Record<string, unknown> | undefined {
    try {
      const fields = schema.safeParse(JSON.parse(String(data)));
      return fields.success ? (fields.data as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  /** An event's fields, checked against its schema (the schemas loaded once); undefined when they cannot be read. */
  async function checked(type: keyof S & string, data: unknown): Promise<Record<string, unknown> | undefined> {
    try {
      schemas ??= stream.schemas();
      const schema = (await schemas)[type];
      return schema && parse(schema, data);
    } catch {
      // The contract could not be fetched: the shop is out of reach; try again as for a broken connection.
      schemas = undefined;
      return undefined;
    }
  }

  async function receive(from: EventSource, type: keyof S & string, data: unknown) {
    // `ready` carries nothing to check: heard without the schemas (the account stream of a quiet page never loads them).
    const fields = type === readyEvent ? {} : await checked(type, data);
    // A connection's last words count even when it closed while they were checked: the server ends a stream right
    // after `signed-out` (a visitor's after the `shop` that closed the shop to visitors, docs/product.md §23).
    const lastWords = type === 'shop' || type === 'signed-out';
    if (stopped || (from !== source && !(lastWords && fields))) return;
    if (!fields) {
      broken(from);
      return;
    }
    retryMs = firstRetryMs;
    if (type === 'signed-out') {
      stop();
      signedOut();
      return;
    }
    if (type === 'account') {
      void refreshSession();
      return;
    }
    if (type === 'shop') {
      setShop(fields as unknown as PublicShop);
      return;
    }
    // The schema of `type` has checked the fields; TypeScript cannot pair the two through the lookup.
    apply({ type, ...fields } as EventOf<S>);
  }

  /**
   * Closes a connection that can no longer be trusted and opens another after a check of the session, with a
   * back-off; once per connection, however many of its events were waiting.
   */
  function broken(connection: EventSource) {
    if (connection !== source || stopped) return;
    connection.close();
    source = null;
    void recover();
  }

  function connect() {
    if (stopped) return;
    const withQuery = query !== '';
    const opened = new EventSource(`${stream.path}${query}`);
    query = '';
    source = opened;
    for (const type of stream.events) {
      opened.addEventListener(type, (message) => {
        // A failure while handling an event (a bug) is a broken connection too, never a stream gone quiet for good.
        pending = pending.then(() => receive(opened, type, message.data)).catch(() => broken(opened));
      });
    }
    // EventSource retries a dropped connection itself, to the same URL; it gives up (CLOSED) only on an answer such as
    // a 401. A first connection's query (`known`) must not ride along: the page may have missed changes since.
    opened.addEventListener('error', () => {
      if (opened.readyState === EventSource.CLOSED || withQuery) broken(opened);
    });
  }

  async function recover() {
    try {
      // A 401 here signs the user out through the API client; the guard then leaves this page.
      await call('session');
    } catch {}
    if (stopped) return;
    clearTimeout(retryTimer);
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
}
