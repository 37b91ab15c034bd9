/**
 * The API's contract, used by both sides: every endpoint's method and path, the schema of its request
 * body and of its answer. The server registers its routes from these paths and validates bodies with these
 * schemas; the browser builds its calls from them and checks every answer. See docs/API.md.
 */
import { z } from 'zod';
import { addToCartSchema, credentialsSchema, newEmailSchema, newPasswordSchema } from './validation';

export const sessionUserSchema = z.object({ uid: z.string(), email: z.string() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const cartItemSchema = z.object({
  id: z.string(),
  uid: z.string(),
  itemid: z.string(),
  name: z.string(),
  /** Integer cents. */
  priceCents: z.number().int(),
  details: z.string(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

/**
 * The events of the live cart stream (Server-Sent Events on GET /api/cart/stream), by SSE event name; each
 * event's `data` line is the JSON of its fields.
 */
export const cartEventSchemas = {
  snapshot: z.object({ items: z.array(cartItemSchema) }),
  added: z.object({ item: cartItemSchema }),
  removed: z.object({ id: z.string() }),
  'signed-out': z.looseObject({}),
} as const;
export type CartEventType = keyof typeof cartEventSchemas;
export type CartEvent = {
  [T in CartEventType]: { type: T } & z.infer<(typeof cartEventSchemas)[T]>;
}[CartEventType];

const userReply = z.object({ user: sessionUserSchema });

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path; a segment `:name` is a parameter, filled in by the caller. */
  path: string;
  /** The JSON body it takes; none when absent. */
  body?: z.ZodType;
  /** The JSON it answers with; `204 No Content` when absent. */
  reply?: z.ZodType;
}

export const endpoints = {
  signUp: { method: 'POST', path: '/api/auth/signup', body: credentialsSchema, reply: userReply },
  logIn: { method: 'POST', path: '/api/auth/login', body: credentialsSchema, reply: userReply },
  logOut: { method: 'POST', path: '/api/auth/logout' },
  session: { method: 'GET', path: '/api/auth/session', reply: userReply },
  changeEmail: { method: 'PUT', path: '/api/account/email', body: newEmailSchema },
  changePassword: { method: 'PUT', path: '/api/account/password', body: newPasswordSchema },
  deleteAccount: { method: 'DELETE', path: '/api/account' },
  cart: { method: 'GET', path: '/api/cart', reply: z.object({ items: z.array(cartItemSchema) }) },
  addToCart: { method: 'POST', path: '/api/cart', body: addToCartSchema, reply: z.object({ item: cartItemSchema }) },
  removeFromCart: { method: 'DELETE', path: '/api/cart/:id' },
  /** Server-Sent Events: `cartEventSchemas`. */
  cartStream: { method: 'GET', path: '/api/cart/stream' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
type Spec<N extends EndpointName> = (typeof endpoints)[N];

/** The body an endpoint takes, or `undefined` when it takes none. */
export type BodyOf<N extends EndpointName> = Spec<N> extends { body: z.ZodType } ? z.input<Spec<N>['body']> : undefined;
/** What an endpoint answers with, or `undefined` for `204 No Content`. */
export type ReplyOf<N extends EndpointName> =
  Spec<N> extends { reply: z.ZodType } ? z.infer<Spec<N>['reply']> : undefined;

/** An endpoint's path with its `:name` segments filled in (each encoded as one path segment). */
export function endpointPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path} needs the parameter ${name}.`);
    return encodeURIComponent(value);
  });
}
