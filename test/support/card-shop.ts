import { afterAll, beforeAll } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import type { RunningServer } from '../../src/server/server';
import { Client } from './client';
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from './fake-stripe';
import { startTestServer, type TestServer } from './server';

/** The settings that point a shop at the fake Stripe (docs/decisions/0023-card-payments.md), and any others. */
export function stripeEnv(apiUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: fakeStripeKey,
    STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
    STRIPE_API_URL: apiUrl,
    ...extra,
  };
}

export interface CardShop {
  readonly fake: FakeStripe;
  readonly server: TestServer;
  /** A confirmed account with the owner's role, signed in. */
  readonly owner: Client;
}

/**
 * For the tests of one file: a shop that takes cards through the fake Stripe (its webhooks sent to the shop), and its
 * owner, started before the file's tests and stopped after them.
 */
export function cardShopWithOwner(): CardShop {
  const parts = {} as { fake: FakeStripe; server: TestServer; owner: Client };
  beforeAll(async () => {
    parts.fake = await FakeStripe.start();
    parts.server = await startTestServer(stripeEnv(parts.fake.url));
    parts.fake.webhookUrl = `${parts.server.url}/api/payments/stripe/webhook`;
    parts.owner = new Client(parts.server.url);
    const { email } = await parts.owner.signupConfirmed();
    await createRoles(parts.server.db).grant(email);
  });
  afterAll(async () => {
    await parts.server?.stop();
    await parts.fake?.close();
  });
  return parts;
}

/** How many of a size are on the shelf of a server's shop now. */
export async function stockOf(server: Pick<RunningServer, 'db'>, itemid: string, size: string): Promise<number> {
  const row = await server.db.kysely
    .selectFrom('product_size')
    .select('stock')
    .where('itemid', '=', itemid)
    .where('size', '=', size)
    .executeTakeFirstOrThrow();
  return Number(row.stock);
}
