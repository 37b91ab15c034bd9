import { expect } from 'vitest';
import { type ErrorCode, errorCatalogue, errorExtras } from '../../src/shared/errors';
import type { Reply } from './client';

/**
 * Asserts that a reply is the error `code` with exactly `status`: a JSON body of exactly `{code, message}` (and the rows
 * or the field, for the codes of `errorExtras`), both non-empty strings. `status` is spelled out in each test and also checked against the catalogue, so
 * a test fails if either the server or the catalogue drifts. With `message`, the message must match too.
 */
export function expectError(reply: Reply, status: number, code: ErrorCode, message?: string | RegExp): void {
  expect(errorCatalogue[code]?.status, `catalogue status of ${code}`).toBe(status);
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status, body: { code } });
  expect(reply.headers.get('content-type') ?? '').toMatch(/^application\/json\b/);
  // Some codes also name the cart rows concerned, or the field the message is about.
  const extra = errorExtras[code];
  expect(Object.keys(reply.body).sort()).toEqual(['code', 'message', ...(extra ? [extra] : [])].sort());
  if (extra === 'field') expect(typeof reply.body.field).toBe('string');
  if (extra === 'reason') expect(reply.body.reason).toMatch(/^discount\//);
  if (extra === 'rows') expect(reply.body.rows).toEqual(expect.arrayContaining([expect.any(String)]));
  expect(typeof reply.body.message).toBe('string');
  expect(reply.body.message.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(reply.body.message).toBe(message);
  else if (message) expect(reply.body.message).toMatch(message);
}

/** Asserts that a reply is a client error (4xx) of the `{code, message}` shape, whatever the code. */
export function expectClientError(reply: Reply): void {
  expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500);
  expect(reply.body).toEqual({ code: expect.any(String), message: expect.any(String) });
  expect(Object.keys(errorCatalogue)).toContain(reply.body.code);
  expect(errorCatalogue[reply.body.code as ErrorCode].status).toBe(reply.status);
}
