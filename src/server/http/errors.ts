import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorBody, type ErrorCode, errorCatalogue } from '../../shared/errors';

/** Thrown anywhere in a route; the app's error handler turns it into `{code, message}`. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = errorCatalogue[code].message,
    readonly headers: Record<string, string> = {},
    /** What the body says beyond the code and the message (the rows concerned). */
    readonly fields: Omit<ErrorBody, 'code' | 'message'> = {},
  ) {
    super(message);
  }
}

export function errorResponse(
  c: Context,
  code: ErrorCode,
  message?: string,
  headers: Record<string, string> = {},
  fields: Omit<ErrorBody, 'code' | 'message'> = {},
) {
  const body: ErrorBody = { code, message: message ?? errorCatalogue[code].message, ...fields };
  return c.json(body, errorCatalogue[code].status as ContentfulStatusCode, headers);
}
