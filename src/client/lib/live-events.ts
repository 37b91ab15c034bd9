import type { z } from 'zod';
import { call } from './api';
import { refreshSession, signedOut } from './session';

const firstRetryMs = 1000;
const maxRetryMs = 30_000;

/**
 * A stream's event schemas, by SSE event name; every stream also has the session's events (`sessionEventSchemas`),
 * handled here.
 */
type Schemas = Record<string, z.ZodType>;

/** An event of a stream: its name as `type`, and its checked fields. */
export type EventOf<S extends Schemas> = { [T in keyof S & string]: { type: T } & z.infer<S[T]> }[keyof S & string];

/** Where a stream is and what its events look like; loaded with the API's contract, not with the page. */
export interface StreamContract<S extends Schemas> {
  path: string;
  schemas: S;
}

/**
 * Follows a live stream of the server (docs/API.md, "Live streams") until the returned function is called: each
 * event checked against its schema and handed to `apply`. A dropped connection is reopened (EventSource does that);
 * a refused one after a check of the session, with a back-off; an event that cannot be read is treated as a broken
 * connection, since it may have been a change: the stream starts again from a fresh snapshot. `signed-out` signs
 * the browser out, and the guards leave the page; `account` asks the server for the session again.
 */
export function followEvents<S extends Schemas>(
  contract: () => Promise<StreamContract<S>>,
  apply: (event: EventOf<S>) => void,
): () => void {
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = firstRetryMs;
  let stopped = false;

  function parse(schema: z.ZodType, data: unknown): Record<string, unknown> | undefined {
    try {
      const fields = schema.safeParse(JSON.parse(String(data)));
      return fields.success ? (fields.data as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  async function connect() {
    let known: StreamContract<S>;
    try {
      known = await contract();
    } catch {
      return recover();
    }
    if (stopped) return;
    const stream = new EventSource(known.path);
    source = stream;
    for (const [type, schema] of Object.entries(known.schemas)) {
      stream.addEventListener(type, (message) => {
        const fields = parse(schema, message.data);
        if (!fields) {
          stream.close();
          void recover();
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
        // The schema of `type` has checked the fields; TypeScript cannot pair the two through the lookup.
        apply({ type, ...fields } as EventOf<S>);
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

  void connect();
  return stop;
}
