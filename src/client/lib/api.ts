import type { BodyOf, Endpoint, EndpointName, endpoints, QueryOf, ReplyOf } from '../../shared/api';
import { notices } from '../../shared/notices';
import { fillPath } from '../../shared/paths';

/** A failed API call: the server's stable code and human message, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The cart rows concerned (`order/sold-out`, `order/size-missing`, `order/unavailable`); empty for other errors. */
  readonly rows: readonly string[];
  /** `product/invalid`: the path of the field the message is about (`name`, `sizes.2.stock`…). */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, rows: readonly string[] = [], field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.rows = rows;
    this.field = field;
  }
}

type UnauthenticatedListener = (requestStartedAt: number) => void;
const unauthenticatedListeners = new Set<UnauthenticatedListener>();

/** Every 401 means the server no longer knows this browser; the session store listens and signs out. */
export function onUnauthenticated(listener: UnauthenticatedListener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/**
 * The contract (src/shared/api.ts) brings zod and the shared schemas, about 23 KB gzip. It loads with the first
 * call (or live stream) rather than with the app, so a page that paints without asking the server anything paints
 * without it; later calls find it already loaded.
 */
export function loadContract() {
  return import('../../shared/api');
}
type Contract = Awaited<ReturnType<typeof loadContract>>['endpoints'];

const networkError = () => new ApiError(0, 'network/unavailable', notices.unreachable);

/**
 * A reply that does not match the contract, e.g. from a server of another version after a deploy. Nothing in it
 * can be trusted, so it is a failure like a server error, never a value cast to the expected type.
 */
const unexpectedReply = (status: number) => new ApiError(status, 'reply/unexpected', notices.unexpected);

function isErrorBody(value: unknown): value is { code: string; message: string; rows?: unknown; field?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code: unknown }).code === 'string' &&
    typeof (value as { message: unknown }).message === 'string'
  );
}

/** The ids of the rows an error names; none when it names none (or not as a list of strings). */
function rowsOf(rows: unknown): string[] {
  return Array.isArray(rows) ? rows.filter((row): row is string => typeof row === 'string') : [];
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  if (isErrorBody(body)) {
    const field = typeof body.field === 'string' ? body.field : undefined;
    return new ApiError(response.status, body.code, body.message, rowsOf(body.rows), field);
  }
  return new ApiError(response.status, 'server/internal', notices.unexpected);
}

/** What to tell the rider about a failure: the server's message, or that something unexpected went wrong. */
export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : notices.unexpected;
}

/** The names of a path's `:name` segments, e.g. `'id'` for `/api/cart/:id`. */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type ParamsOf<N extends EndpointName> = PathParams<(typeof endpoints)[N]['path']>;

/**
 * What a call needs: the body when the endpoint takes one (JSON, or a file for an endpoint that takes a file), the
 * path's parameters when it has any, its query.
 */
export type CallOptions<N extends EndpointName> = (BodyOf<N> extends undefined
  ? { body?: never }
  : { body: BodyOf<N> }) &
  ((typeof endpoints)[N] extends { file: true } ? { file: Blob } : { file?: never }) &
  ([ParamsOf<N>] extends [never] ? { params?: never } : { params: Record<ParamsOf<N>, string> }) &
  (QueryOf<N> extends undefined ? { query?: never } : { query?: QueryOf<N> });

/** `?name=value&...` of the values given; empty when there are none. */
function queryString(query: unknown): string {
  const given = Object.entries(typeof query === 'object' && query !== null ? query : {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return given.length > 0 ? `?${new URLSearchParams(given)}` : '';
}

/** The options argument may be left out only when the endpoint needs neither a body nor parameters. */
type CallArguments<N extends EndpointName> =
  Record<string, never> extends CallOptions<N> ? [options?: CallOptions<N>] : [options: CallOptions<N>];

/**
 * The one way the client talks to the server: an endpoint of src/shared/api.ts by name, its body typed and
 * sent as JSON (or, for an endpoint that takes a file, the file's bytes), its reply checked against the endpoint's
 * schema. Failures are thrown as ApiError; a 401 also tells the session store (onUnauthenticated).
 */
export async function call<N extends EndpointName>(name: N, ...[options]: CallArguments<N>): Promise<ReplyOf<N>> {
  let contract: Contract;
  try {
    contract = (await loadContract()).endpoints;
  } catch {
    // A module that cannot be fetched means the shop is out of reach, as when the request cannot be sent.
    throw networkError();
  }
  const endpoint: Endpoint = contract[name];
  const body = options?.body;
  const startedAt = performance.now();
  let response: Response;
  try {
    response = await fetch(fillPath(endpoint.path, options?.params) + queryString(options?.query), {
      method: endpoint.method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      // A file goes as it is, and fetch gives it its own type as its Content-Type.
      body: options?.file ?? (body === undefined ? undefined : JSON.stringify(body)),
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
  if (!endpoint.reply) return undefined as ReplyOf<N>;
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    // A body cut off on the way (or no body at all) is a failed transfer, as when the shop cannot be reached.
    throw networkError();
  }
  const reply = endpoint.reply.safeParse(json);
  if (!reply.success) throw unexpectedReply(response.status);
  // The endpoint's own schema has checked it; TypeScript cannot follow `endpoints[name]` back to N.
  return reply.data as ReplyOf<N>;
}
