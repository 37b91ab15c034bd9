// A fake of Stripe's API as a process of its own (test/support/fake-stripe.ts), for trying card payments without
// Stripe: the browser tests start it, and README's "Card payments" shows how to run the shop against it. It listens
// on 127.0.0.1:FAKE_STRIPE_PORT (default 12111, stripe-mock's) and sends its webhooks to FAKE_STRIPE_WEBHOOK_URL,
// FAKE_STRIPE_WEBHOOK_DELAY_MS after a payment (default 1000: the rider is back at the shop first, as with Stripe),
// or when a test lets a held one go (`POST`, then `DELETE`, `/held/<order>`).
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../test/support/fake-stripe';

const fake = await FakeStripe.start(Number(process.env.FAKE_STRIPE_PORT ?? 12111));
fake.webhookUrl = process.env.FAKE_STRIPE_WEBHOOK_URL ?? 'http://127.0.0.1:3000/api/payments/stripe/webhook';
fake.webhookDelayMs = Number(process.env.FAKE_STRIPE_WEBHOOK_DELAY_MS ?? 1000);
process.stdout.write(
  `Fake Stripe on ${fake.url}, webhooks to ${fake.webhookUrl}.\n` +
    `Start the shop with STRIPE_API_URL=${fake.url} STRIPE_SECRET_KEY=${fakeStripeKey} STRIPE_WEBHOOK_SECRET=${fakeWebhookSecret}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await fake.close();
    process.exit(0);
  });
}
