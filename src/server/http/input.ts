import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { Context } from 'hono';
import type { z } from 'zod';
import { type ErrorCode, errorExtras } from '../../shared/errors';
import { parseOrderNumber } from '../../shared/orders';
import type { AppEnv } from '../app-env';
import { bodyLimitOf, largestRequestBytes } from './body-size';
import { HttpError } from './errors';

/**
 * How fast a request must arrive (docs/SECURITY.md, "Limits on requests"; ADR 0029). A body must come at
 * `minBytesPerSecond` on average once `graceMs` have passed since its route began to read it: a largest picture
 * (5 MB) within 56 s, a form's few hundred bytes within 5 s. A body that falls behind is answered 408
 * `request/too-slow`, so that a client trickling bytes holds a connection for seconds rather than Node's default
 * 300 s. Node itself keeps the rest (server.ts): the headers within `headersMs`, the whole request within
 * `requestMs`, a bound for the bodies no route reads; it must not cut first a body that keeps the pace, so it is
 * the headers' time plus the largest body's that any route reads (`largestRequestBytes`: the shop's settings as
 * large as they may be), rounded up to ten seconds.
 */
const pace = { graceMs: 5_000, minBytesPerSecond: 100 * 1024, headersMs: 10_000 } as const;
export const requestPace = {
  ...pace,
  requestMs:
    Math.ceil((pace.headersMs + pace.graceMs + (largestRequestBytes() / pace.minBytesPerSecond) * 1000) / 10_000) *
    10_000,
} as const;

/**
 * The request's body, read straight from Node's request (a web `Request` would be built only to be read), at most
 * `maxBytes` of it whether or not a `Content-Length` announces it (more is `tooLarge`), at `requestPace`. A refused
 * body is left unread, not destroyed, so that the answer still reaches the client; the connection closes after it,
 * so that no client sends its next request after bytes the server will not read. A client that hangs up makes it
 * fail with Node's own error, which the app's error handler tells apart (`clientHungUp` in errors.ts).
 */
function readBody(
  incoming: IncomingMessage,
  maxBytes: number,
  tooLarge: ErrorCode = 'request/body-too-large',
): Promise<Buffer> {
  const refuse = (code: ErrorCode) => new HttpError(code, undefined, { Connection: 'close' });
  if (Number(incoming.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(refuse(tooLarge));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    // The moment by which more than `size` bytes must have come.
    const keepPace = () => {
      clearTimeout(timer);
      const due = started + requestPace.graceMs + (size / requestPace.minBytesPerSecond) * 1000;
      timer = setTimeout(() => stop(refuse('request/too-slow')), due - performance.now());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop(refuse(tooLarge));
      chunks.push(chunk);
      keepPace();
    };
    const stopWatching = finished(incoming, (error) => {
      if (error) return stop(error);
      clear();
      resolve(Buffer.concat(chunks, size));
    });
    function clear() {
      clearTimeout(timer);
      incoming.off('data', onData);
      stopWatching();
    }
    function stop(error: Error) {
      clear();
      incoming.pause();
      reject(error);
    }
    keepPace();
    incoming.on('data', onData);
  });
}

/** The request's body as it came, at most `maxBytes` of it (for a signature computed over the exact bytes). */
export async function readText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  return (await readBody(c.env.incoming, maxBytes)).toString('utf8');
}

/** The request's body as bytes (an uploaded file), at most `maxBytes` of it; more is `tooLarge`. */
export function readBytes(c: Context<AppEnv>, maxBytes: number, tooLarge: ErrorCode): Promise<Buffer> {
  return readBody(c.env.incoming, maxBytes, tooLarge);
}

/**
 * Reads a JSON body, at most the largest one `schema` accepts (`bodyLimitOf`), and validates it against that shared
 * schema. A problem with a field named in `fieldCodes` is answered with that code and the schema's own message (and,
 * for the codes that name their field, `errorExtras`, the path of the field, for a form to show it there), anything
 * else with `request/invalid-body`.
 */
export async function readJson<T extends z.ZodType>(
  c: Context<AppEnv>,
  schema: T,
  fieldCodes: Record<string, ErrorCode> = {},
): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError('request/unsupported-media-type');
  const text = (await readBody(c.env.incoming, bodyLimitOf(schema))).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError('request/invalid-json');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const code = fieldCodes[field];
  if (code && issue?.code !== 'unrecognized_keys') {
    throw new HttpError(
      code,
      issue?.message,
      {},
      errorExtras[code] === 'field' ? { field: issue?.path.join('.') } : {},
    );
  }
  throw new HttpError('request/invalid-body', describeIssue(issue));
}

/**
 * Reads the query string and validates it against a shared schema (each value a string); anything it does not
 * describe, a parameter given twice included, is `request/invalid-query`.
 */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const values: Record<string, string> = {};
  for (const [name, given] of Object.entries(c.req.queries())) {
    if (given.length !== 1) throw new HttpError('request/invalid-query', `${name}: give it once.`);
    values[name] = given[0] as string;
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  throw new HttpError('request/invalid-query', describeIssue(result.error.issues[0]));
}

/** The first problem, named by where it is; undefined leaves the code's own message. */
function describeIssue(issue: z.core.$ZodIssue | undefined): string | undefined {
  if (!issue) return undefined;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * The order number of the route's `:number`; an unreadable one is an order that does not exist. Here, with the other
 * readers of a request, because the order, invoice and back-office routes all read it.
 */
export function orderNumberParam(text: string): number {
  const number = parseOrderNumber(text);
  if (number === undefined) throw new HttpError('order/not-found');
  return number;
}
