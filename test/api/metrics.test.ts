import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, confirmedRider } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

/** GET /metrics for the operator (docs/OPERATIONS.md, "Metrics"). */
const token = 'metrics-token-0123456789abcdef';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: token });
});
afterAll(() => server.stop());

const scrape = () => new Client(server.url).raw('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });

/** The value of the series `name{labels}` (labels as written, in order), or 0 when it is absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The number of request series in a scrape (the process metrics may add series of their own, a new kind of GC). */
const requestSeries = (text: string) =>
  text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds')).length;

describe('/metrics', () => {
  it('is the Snap! page (404) without METRICS_TOKEN, like any unknown path', async () => {
    const shop = await startTestServer();
    try {
      const reply = await new Client(shop.url).raw('GET', '/metrics', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(reply.status).toBe(404);
      expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      await shop.stop();
    }
  });

  it('answers 401 without the bearer token or with a wrong one, and the text format with it', async () => {
    const anonymous = new Client(server.url);
    const tries: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: token },
      { authorization: `Basic ${token}` },
      { authorization: `Bearer ${token}x` },
      { authorization: `Bearer${token}` },
    ];
    for (const headers of tries) {
      const refused = await anonymous.raw('GET', '/metrics', { headers });
      expectError(refused, 401, 'auth/unauthenticated', 'Send METRICS_TOKEN as a bearer token.');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
    // The scheme's name is case-insensitive (RFC 9110 §11.1).
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const taken = await anonymous.raw('GET', '/metrics', { headers: { authorization: `${scheme} ${token}` } });
      expect(taken.status, scheme).toBe(200);
    }
    const reply = await scrape();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'http_request_duration_seconds',
      'piaffe_live_streams',
      'piaffe_emails_waiting',
      'piaffe_emails_failed',
      'piaffe_email_oldest_waiting_age_seconds',
      'piaffe_orders_placed_total',
      'piaffe_orders_refused_total',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(reply.body, name).toContain(`# TYPE ${name} `);
    }
  });

  it('moves with real requests: orders placed by method, refused by reason, requests by route, e-mails waiting', async () => {
    const before = String((await scrape()).body);
    const rider = await confirmedRider(server.url);
    // The mailbox turns every e-mail away for a while (a passing failure), so the two order confirmations wait in the
    // outbox at the scrape, whenever the sender tries them.
    const mailbox = server.mailbox;
    if (!mailbox) throw new Error('the test server has a mailbox of its own');
    mailbox.refuseWith = { code: 451, message: 'Mailbox temporarily unavailable' };
    let after: string;
    try {
      await rider.order('3');
      await rider.add('4');
      expect((await rider.placeOrder({ paymentMethod: 'collection' })).status).toBe(201);
      expect((await rider.placeOrder()).status).toBe(409);
      after = String((await scrape()).body);
    } finally {
      mailbox.refuseWith = undefined;
    }

    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('piaffe_orders_placed_total{payment_method="bank-transfer"}')).toBe(1);
    expect(delta('piaffe_orders_placed_total{payment_method="collection"}')).toBe(1);
    expect(delta('piaffe_orders_refused_total{reason="order/cart-empty"}')).toBe(1);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/api/orders",status="201"}')).toBe(2);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/api/cart",status="201"}')).toBe(2);
    expect(delta('piaffe_emails_waiting')).toBe(2);
    expect(value(after, 'piaffe_email_oldest_waiting_age_seconds')).toBeGreaterThan(0);
  });

  it('labels requests by route pattern: 1,000 unknown paths add no series', async () => {
    const client = new Client(server.url);
    // Each route pattern and status seen once (the scrape's own too), so the count below is what unknown paths add.
    await client.raw('GET', '/api/unknown-0');
    await client.raw('GET', '/unknown-0');
    await scrape();
    const before = requestSeries(String((await scrape()).body));
    for (let i = 1; i <= 500; i++) {
      await client.raw('GET', `/api/unknown-${i}`);
      await client.raw('GET', `/unknown-${i}?q=${i}`);
    }
    const after = String((await scrape()).body);
    expect(requestSeries(after)).toBe(before);
    expect(after).not.toContain('unknown-');
    expect(value(after, 'http_request_duration_seconds_count{method="GET",route="/api/*",status="404"}')).toBe(501);
  });
});
