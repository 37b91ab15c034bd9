import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import { HttpError } from './errors';

/** The largest request body the API reads. */
export const maxBodyBytes = 16 * 1024;

/**
 * The request's body as text, read straight from Node's request (a web `Request` would be built only to be read),
 * at most `maxBytes` of it whether or not a `Content-Length` announces it; more is `request/body-too-large`.
 */
async function readBody(
  incoming: IncomingMessage,
  maxBytes = maxBodyBytes,
  tooLarge: ErrorCode = 'request/body-too-large',
): Promise<Buffer> {
  // The rest of the body is never read: the connection closes after the answer, so that no client sends its next
  // request after bytes the server will not read.
  const refused = () => new HttpError(tooLarge, undefined, { Connection: 'close' });
  if (Number(incoming.headers['content-length'] ?? 0) > maxBytes) throw refused();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw refused();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
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
 * Reads a JSON body and validates it against a shared schema. A problem with a field named in
 * `fieldCodes` is answered with that code and the schema's own message (and, with `options.field`, the path of the
 * field, for a form to show it there), anything else with `request/invalid-body`.
 */
export async function readJson<T extends z.ZodType>(
  c: Context<AppEnv>,
  schema: T,
  fieldCodes: Record<string, ErrorCode> = {},
  options: { field?: boolean } = {},
): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError('request/unsupported-media-type');
  const text = (await readBody(c.env.incoming)).toString('utf8');
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
    throw new HttpError(code, issue?.message, {}, options.field ? { field: issue?.path.join('.') } : {});
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
