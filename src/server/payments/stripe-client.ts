import Stripe from 'stripe';
import type { StripeConfig } from '../config';
import type { Logger } from '../log';

/** The shop's Stripe account: the official library, and the secret its webhook's events are signed with. */
export interface StripeAccount {
  client: Stripe;
  webhookSecret: string;
}

/**
 * The official library, pointed at STRIPE_API_URL when set (a local fake, or Stripe's stripe-mock); undefined when
 * the shop takes no cards (no STRIPE_SECRET_KEY).
 */
export function connectStripe(config: StripeConfig | undefined): StripeAccount | undefined {
  if (!config) return undefined;
  const { secretKey, apiUrl, webhookSecret } = config;
  const client = new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(apiUrl
      ? {
          host: apiUrl.hostname,
          port: apiUrl.port || (apiUrl.protocol === 'https:' ? 443 : 80),
          protocol: apiUrl.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  return { client, webhookSecret };
}

/** Stripe answered with a refusal (a card error, an invalid request), not a network failure. */
export function isRefusal(error: unknown): error is Stripe.errors.StripeError {
  return (
    error instanceof Stripe.errors.StripeError &&
    !(error instanceof Stripe.errors.StripeConnectionError) &&
    !(error instanceof Stripe.errors.StripeAPIError)
  );
}

/**
 * Runs `work`, which talks to Stripe. Stripe out of reach, or answering what we did not expect, is
 * `payments-unavailable` (the rider is told to try again); anything else throws.
 */
export async function reachingStripe<T>(
  log: Logger,
  work: () => Promise<T>,
): Promise<T | { ok: false; reason: 'payments-unavailable' }> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.warn({ err: error.message, type: error.type }, 'Stripe could not be reached or refused a request');
    return { ok: false, reason: 'payments-unavailable' };
  }
}

/**
 * The start of the idempotency keys of an order's requests to Stripe: its number and the moment it was placed, so
 * that a shop started afresh (a new database, a restored backup) never meets the keys of an earlier order that had
 * the same number (Stripe keeps keys for 24 hours).
 */
export function orderKey(number: number, placedAt: number): string {
  return `piaffe-order-${number}-${Number(placedAt)}`;
}
