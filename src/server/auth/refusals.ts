import { APIError } from 'better-auth/api';
import type { ErrorCode } from '../../shared/errors';
import { HttpError } from '../http/errors';

/**
 * A translator of Better Auth's refusals into our errors, by Better Auth's code (`codes`: theirs to ours). Better
 * Auth's own session check answering 401 is a session that ended after ours let the request in (a log-out in another
 * tab, a moment before): `auth/unauthenticated`. Any other refusal it does not name, and anything unexpected, stays
 * as it was, an error for the log.
 */
export function refusalsOf(codes: Readonly<Record<string, ErrorCode>>): (error: unknown) => unknown {
  return (error) => {
    if (error instanceof APIError) {
      const code = codes[String(error.body?.code)] ?? (error.statusCode === 401 ? 'auth/unauthenticated' : undefined);
      if (code) return new HttpError(code);
    }
    return error;
  };
}
