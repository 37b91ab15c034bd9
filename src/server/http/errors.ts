import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorBody, type ErrorCode, errorCatalogue } from '../../shared/errors';
import type { AppEnv } from '../app-env';

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

/**
 * Whether the client went away before its request's body arrived in full: Node's request was cut short, whoever was
 * reading it (our body reader, or any other). Such a request is the client's doing, not the server's error.
 */
export function clientHungUp(c: Context<AppEnv>): boolean {
  return c.env.incoming.readableAborted;
}

/**
 * The status a request whose client hung up is recorded with, in the request log and the metrics: nginx's 499
 * "client closed request", which operators know. Nothing is sent: the connection is gone.
 */
export const clientClosedRequest = 499;
