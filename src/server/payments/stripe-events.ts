import '../../shared/zod-config';
import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * What the shop reads of a webhook event whose signature it has checked (docs/decisions/0023-card-payments.md): only
 * the fields it uses, each of the type it uses. Stripe signs what it sends, not that it has the shape we expect (an
 * API version we do not know, a bug at either end): an event that does not is kept as a problem for the owner, never
 * a 500, never stored without an id.
 */

/** Stripe's ids and names are short; these bounds only keep a broken event from filling a row. */
const name = z.string().min(1).max(255);

const envelope = z.object({ id: name, type: name });

/** The event types that act on an order; every other type is recorded and ignored, whatever its data. */
export const checkoutTypes = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;
type CheckoutType = (typeof checkoutTypes)[number];

/** A field Stripe may leave out or send as null: null either way. */
const orNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? null);

const checkoutSession = z.object({
  id: name,
  metadata: orNull(z.object({ order: name.optional() })),
  client_reference_id: orNull(name),
  amount_total: orNull(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)),
  currency: orNull(name),
  payment_status: orNull(name),
  payment_intent: orNull(z.union([name, z.object({ id: name })])),
});
export type CheckoutSession = z.infer<typeof checkoutSession>;

const checkoutData = z.object({ data: z.object({ object: checkoutSession }) });

export type ReadEvent =
  | { id: string; type: CheckoutType; session: CheckoutSession; problem?: undefined }
  | { id: string; type: string; session?: undefined; problem?: string };

/** The first thing wrong with the event, for the owner: where in it, and what. */
function firstIssue(error: z.ZodError): string {
  const [issue] = error.issues;
  if (!issue) return 'unreadable';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the event';
  return `${where}: ${issue.message}`.slice(0, 200);
}

function isCheckout(type: string): type is CheckoutType {
  return (checkoutTypes as readonly string[]).includes(type);
}

/**
 * The event in a signed body. One without a readable id is kept under one made from its bytes (the same body sent
 * again is the same event), with its problem.
 */
export function readEvent(body: string): ReadEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const head = envelope.safeParse(json);
  if (!head.success) {
    const type = name.safeParse((json as { type?: unknown } | null | undefined)?.type);
    return {
      id: `unreadable-${createHash('sha256').update(body).digest('hex').slice(0, 32)}`,
      type: type.success ? type.data : 'unreadable',
      problem: `Stripe sent a signed event the shop cannot read (${json === undefined ? 'not JSON' : firstIssue(head.error)}): nothing was done. Look it up in Stripe's dashboard.`,
    };
  }
  const { id, type } = head.data;
  if (!isCheckout(type)) return { id, type };
  const checkout = checkoutData.safeParse(json);
  if (!checkout.success) {
    return {
      id,
      type,
      problem: `Stripe sent a ${type} event the shop cannot read (${firstIssue(checkout.error)}): nothing was done. Look it up in Stripe's dashboard.`,
    };
  }
  return { id, type, session: checkout.data.data.object };
}
