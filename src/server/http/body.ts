import type { Context } from 'hono';
import type { z } from 'zod';
import type { ErrorCode } from '../../shared/errors';
import { HttpError } from './errors';

/**
 * Reads a JSON body and validates it against a shared schema. A problem with a field named in
 * `fieldCodes` is answered with that code and the schema's own message, anything else with
 * `request/invalid-body`. The size limit is enforced before this by the body-limit middleware.
 */
export async function readJson<T extends z.ZodType>(
  c: Context,
  schema: T,
  fieldCodes: Record<string, ErrorCode> = {},
): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError('request/unsupported-media-type');
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new HttpError('request/invalid-json');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const code = fieldCodes[field];
  if (code && issue?.code !== 'unrecognized_keys') throw new HttpError(code, issue?.message);
  throw new HttpError('request/invalid-body', describeIssue(issue));
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'The request body does not have the expected fields.';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}
