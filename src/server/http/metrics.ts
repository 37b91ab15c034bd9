import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppEnv } from '../app-env';
import type { Outbox } from '../mail/outbox';
import { clientHungUp, errorResponse, HttpError } from './errors';

export interface MetricsParts {
  /** METRICS_TOKEN: the bearer token a scraper sends. */
  token: string;
  /** The live streams open on this server (src/server/live), counted. */
  streams: { readonly size: number };
  outbox: Outbox;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The credentials of an `Authorization: Bearer ...` header, whatever the case of its scheme (RFC 9110 §11.1). */
function bearerToken(header: string | undefined): string {
  return /^bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? '';
}

/**
 * The operator's metrics (docs/OPERATIONS.md, "Metrics"), in Prometheus' text format through prom-client, with
 * prom-client's naming: `_total` for counters, `_seconds` for durations. A registry of its own for each app,
 * never the library's global one. Requests are labelled by the route pattern that answered them (`/api/orders/:number`,
 * `/api/*` for an unknown API path, `*` for pages and files), never by the raw path, so no request can add a
 * series. Only built when METRICS_TOKEN is set: a shop without it pays nothing for them.
 */
export function createMetrics({ token, streams, outbox }: MetricsParts) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status (499: the client hung up mid-request); its _count is the number of requests.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const placed = new Counter({
    name: 'piaffe_orders_placed_total',
    help: 'Orders placed, by payment method.',
    labelNames: ['payment_method'],
    registers: [registry],
  });
  const refused = new Counter({
    name: 'piaffe_orders_refused_total',
    help: 'Orders refused, by the error code of the answer.',
    labelNames: ['reason'],
    registers: [registry],
  });
  new Gauge({
    name: 'piaffe_live_streams',
    help: 'Live streams (home and cart pages, the owners’ list) open on this server.',
    registers: [registry],
    collect() {
      this.set(streams.size);
    },
  });
  // The outbox is read once per scrape, for the three gauges together.
  let backlog: ReturnType<Outbox['backlog']> | undefined;
  const outboxGauge = (name: string, help: string, value: (b: Awaited<ReturnType<Outbox['backlog']>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        backlog ??= outbox.backlog().finally(() => setImmediate(() => (backlog = undefined)));
        this.set(value(await backlog));
      },
    });
  outboxGauge('piaffe_emails_waiting', 'E-mails waiting in the outbox to be sent.', (b) => b.waiting);
  outboxGauge('piaffe_emails_failed', 'E-mails that failed after their last retry.', (b) => b.failed);
  outboxGauge('piaffe_email_oldest_waiting_age_seconds', 'Age of the oldest waiting e-mail; 0 when none waits.', (b) =>
    b.oldestWaitingAt === undefined ? 0 : Math.max(0, (Date.now() - b.oldestWaitingAt) / 1000),
  );

  const expected = digest(token);

  return {
    /** Times every request, labelled by the route pattern that answered it. */
    requests: (async (c, next) => {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        requests.observe(
          { method: c.req.method, route: routePath(c) || 'none', status: String(c.res.status) },
          seconds,
        );
      }
    }) satisfies MiddlewareHandler<AppEnv>,

    /** Counts the answer of an order placement: placed (by payment method) or refused (by error code), never a hang-up. */
    orders: (async (c, next) => {
      await next();
      if (clientHungUp(c)) return;
      if (c.error) refused.inc({ reason: c.error instanceof HttpError ? c.error.code : 'server/internal' });
      else if (c.res.status === 201) placed.inc({ payment_method: c.get('paymentMethod') ?? 'unknown' });
    }) satisfies MiddlewareHandler<AppEnv>,

    /** GET /metrics: the text format, for a request with the bearer token (compared in constant time). */
    route: (async (c) => {
      const given = digest(bearerToken(c.req.header('authorization')));
      if (!timingSafeEqual(given, expected)) {
        return errorResponse(c, 'auth/unauthenticated', 'Send METRICS_TOKEN as a bearer token.', {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        });
      }
      return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType });
    }) satisfies MiddlewareHandler<AppEnv>,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
