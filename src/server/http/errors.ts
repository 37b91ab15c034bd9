import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorBody, type ErrorCode, errorCatalogue } from '../../shared/errors';

/** Thrown anywhere in a route; the app's error handler turns it into `{code, message}`. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = errorCatalogue[code].message,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorResponse(c: Context, code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
  const body: ErrorBody = { code, message: message ?? errorCatalogue[code].message };
  return c.json(body, errorCatalogue[code].status as ContentfulStatusCode, headers);
}
