import type { ErrorBody } from '../../shared/errors';

/** A failed API call: the server's stable code and human message, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

type UnauthenticatedListener = (requestStartedAt: number) => void;
const unauthenticatedListeners = new Set<UnauthenticatedListener>();

/** Every 401 means the server no longer knows this browser; the session layer listens and signs out. */
export function onUnauthenticated(listener: UnauthenticatedListener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

const networkError = () =>
  new ApiError(0, 'network/unavailable', 'The shop could not be reached. Check your connection and try again.');

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).code === 'string' &&
    typeof (value as ErrorBody).message === 'string'
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  if (isErrorBody(body)) return new ApiError(response.status, body.code, body.message);
  return new ApiError(response.status, 'server/internal', 'Something went wrong on our side.');
}

/** The one way the client talks to the server: JSON in, JSON out, errors thrown as ApiError. */
export async function request<T = void>(method: string, path: string, body?: unknown): Promise<T> {
  const startedAt = performance.now();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw networkError();
  }
  if (!response.ok) {
    const error = await toApiError(response);
    if (response.status === 401) {
      for (const listener of unauthenticatedListeners) listener(startedAt);
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch {
    throw networkError();
  }
}
