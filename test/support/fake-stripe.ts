import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the part of Stripe's API the shop uses (docs/decisions/0023-card-payments.md), for tests: no test reaches
 * the internet. The official library talks to it through STRIPE_API_URL, as it would to Stripe: form-encoded
 * requests, idempotency keys, Stripe's error shape. It also plays the hosted payment page (GET /pay/:session, with
 * 'Pay' and 'Back to the shop') and sends webhooks signed the way Stripe signs them.
 */

export const fakeStripeKey = 'sk_test_piaffefake';
export const fakeWebhookSecret = 'whsec_piaffefakesecret';

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer_email: string | null;
  payment_intent: string | null;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  url: string;
  mode: string;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  status: 'succeeded';
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  data: { object: unknown };
}

export interface Delivery {
  status: number;
  body: string;
}

/** A form body as Stripe's library writes it (`a[b][0][c]=1`), as nested objects and arrays. */
export function parseForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

/** Stripe's signature header: `t=<seconds>,v1=<HMAC-SHA256 of "t.payload" with the secret>`. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A URL on 127.0.0.1 where nothing listens: the port of a fake just closed. */
export async function closedUrl(): Promise<string> {
  const fake = await FakeStripe.start();
  await fake.close();
  return fake.url;
}

export class FakeStripe {
  readonly sessions = new Map<string, FakeSession>();
  readonly refunds: FakeRefund[] = [];
  /** Every request the library made: method, path and parsed body. */
  readonly requests: Array<{ method: string; path: string; body: Record<string, unknown>; idempotencyKey?: string }> =
    [];
  /** Every webhook delivery, in order. */
  readonly deliveries: Array<{ event: StripeEvent } & Delivery> = [];
  /** Where webhooks go: the shop's `/api/payments/stripe/webhook`. */
  webhookUrl = '';
  /** Set to a message to refuse every refund with it, as Stripe refuses one. */
  refundRefusal: string | null = null;
  /** How long a refund takes to be answered (made at once, answered late). */
  refundDelayMs = 0;
  /** How long the hosted page waits before sending the webhook of a payment (the rider is back at the shop first). */
  webhookDelayMs = 0;
  /** The payments' webhooks held back, by the order they pay for, until the test lets them go (`/held/<order>`). */
  #held = new Map<string, StripeEvent[]>();
  url = '';
  #server: Server;
  #idempotent = new Map<string, { status: number; body: unknown }>();
  #counter = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts the fake on 127.0.0.1 (`port` 0: any free port). */
  static async start(port = 0): Promise<FakeStripe> {
    const server = createServer();
    const fake = new FakeStripe(server);
    server.on('request', (req, res) => {
      fake.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #id(prefix: string): string {
    this.#counter += 1;
    return `${prefix}_test_${Date.now().toString(36)}${this.#counter}`;
  }

  /** The only session made for an order (by its number, PF-...), or the latest one. */
  sessionOf(orderNumber: string): FakeSession | undefined {
    return [...this.sessions.values()].filter((s) => s.metadata.order === orderNumber).at(-1);
  }

  /** An event as Stripe sends it. */
  event(type: string, object: unknown): StripeEvent {
    return {
      id: this.#id('evt'),
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      api_version: '2026-10-28.endive',
      livemode: false,
      data: { object },
    };
  }

  /** Pays a session, as a rider would on the hosted page; the event, not yet delivered. */
  pay(sessionId: string): StripeEvent {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${session.status}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = this.#id('pi');
    return this.event('checkout.session.completed', { ...session });
  }

  /**
   * Posts an event to the webhook (`to`, or `webhookUrl`), signed with `secret` at `timestamp` (seconds), as Stripe
   * does; or with the given `signature` header (or none, with null).
   */
  async deliver(
    event: StripeEvent,
    {
      secret = fakeWebhookSecret,
      timestamp,
      signature,
      to = this.webhookUrl,
    }: { secret?: string; timestamp?: number; signature?: string | null; to?: string } = {},
  ): Promise<Delivery> {
    const payload = JSON.stringify(event, null, 2);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'Stripe/1.0',
    };
    const header = signature === undefined ? signPayload(payload, secret, timestamp) : signature;
    if (header !== null) headers['Stripe-Signature'] = header;
    const response = await fetch(to, { method: 'POST', headers, body: payload });
    const delivery = { status: response.status, body: await response.text() };
    this.deliveries.push({ event, ...delivery });
    return delivery;
  }

  #reply(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': this.#id('req') });
    res.end(JSON.stringify(body));
  }

  #error(status: number, message: string, code?: string) {
    return { status, body: { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } } };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await read(req);
    if (url.pathname === '/healthz') return this.#reply(res, 200, { status: 'ok' });
    if (url.pathname.startsWith('/pay/')) return this.#hostedPage(req, res, url);
    if (url.pathname.startsWith('/held/')) return this.#holding(req, res, url);
    if (req.headers.authorization !== `Bearer ${fakeStripeKey}`) {
      return this.#reply(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const body = parseForm(raw);
    const key = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method: req.method ?? '', path: url.pathname, body, idempotencyKey: key });
    const cacheKey = key && `${req.method} ${url.pathname} ${key}`;
    const cached = cacheKey ? this.#idempotent.get(cacheKey) : undefined;
    if (cached) return this.#reply(res, cached.status, cached.body);
    const answer = this.#api(req.method ?? 'GET', url.pathname, body);
    if (url.pathname === '/v1/refunds' && this.refundDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.refundDelayMs));
    }
    // Stripe keeps the answer to a key, errors included (but not for a server error).
    if (cacheKey && answer.status < 500) this.#idempotent.set(cacheKey, answer);
    this.#reply(res, answer.status, answer.body);
  }

  #api(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const sessionPath = path.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
    const intentPath = path.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const items = Object.values((body.line_items ?? {}) as Record<string, Record<string, unknown>>);
      const price = (item: Record<string, unknown>) => item.price_data as Record<string, unknown>;
      const amount = items.reduce((sum, item) => sum + Number(price(item).unit_amount) * Number(item.quantity ?? 1), 0);
      const id = this.#id('cs');
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: String(items[0] ? price(items[0]).currency : 'usd'),
        client_reference_id: (body.client_reference_id as string | undefined) ?? null,
        metadata: (body.metadata ?? {}) as Record<string, string>,
        customer_email: (body.customer_email as string | undefined) ?? null,
        payment_intent: null,
        expires_at: Number(body.expires_at),
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        url: `${this.url}/pay/${id}`,
        mode: String(body.mode),
      };
      // As Stripe: a charge in dollars must be at least $0.50.
      if (amount < 50) {
        return this.#error(
          400,
          "The Checkout Session's total amount due must add up to at least $0.50 usd",
          'amount_too_small',
        );
      }
      const now = Math.floor(Date.now() / 1000);
      if (!(session.expires_at >= now + 30 * 60 - 5 && session.expires_at <= now + 24 * 3600 + 5)) {
        return this.#error(400, 'The `expires_at` timestamp must be between 30 minutes and 24 hours from now.');
      }
      this.sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (sessionPath) {
      const session = this.sessions.get(sessionPath[1] ?? '');
      if (!session) return this.#error(404, `No such checkout.session: '${sessionPath[1]}'`, 'resource_missing');
      if (method === 'POST' && sessionPath[2]) {
        if (session.status !== 'open') {
          return this.#error(
            400,
            `Only Checkout Sessions with a status in ["open"] can be expired. This is ${session.status}.`,
          );
        }
        session.status = 'expired';
      }
      return { status: 200, body: session };
    }
    if (intentPath) {
      const session = [...this.sessions.values()].find((s) => s.payment_intent === intentPath[1]);
      if (!session) return this.#error(404, `No such payment_intent: '${intentPath[1]}'`, 'resource_missing');
      const intent = {
        id: intentPath[1],
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
      };
      return { status: 200, body: { ...intent, status: 'succeeded' } };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const session = [...this.sessions.values()].find((s) => s.payment_intent === body.payment_intent);
      if (!session) return this.#error(404, `No such payment_intent: '${body.payment_intent}'`, 'resource_missing');
      if (this.refundRefusal) return this.#error(400, this.refundRefusal, 'charge_disputed');
      // As Stripe: a refund of part of a charge (`amount`) or of what is left of it, never more than is left.
      const refunded = this.refunds
        .filter((r) => r.payment_intent === body.payment_intent)
        .reduce((sum, r) => sum + r.amount, 0);
      const left = session.amount_total - refunded;
      if (left <= 0) {
        return this.#error(
          400,
          `Charge for ${body.payment_intent} has already been refunded.`,
          'charge_already_refunded',
        );
      }
      const amount = body.amount === undefined ? left : Number(body.amount);
      if (!Number.isInteger(amount) || amount < 1 || amount > left) {
        return this.#error(
          400,
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        );
      }
      const refund: FakeRefund = {
        id: this.#id('re'),
        object: 'refund',
        payment_intent: String(body.payment_intent),
        amount,
        status: 'succeeded',
      };
      this.refunds.push(refund);
      return { status: 200, body: refund };
    }
    return this.#error(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  /**
   * For a test that must see what happens before Stripe's word comes, whatever the machine's pace (the browser tests
   * use it over HTTP): `POST /held/<order>` holds the webhooks of the payments for that order; `DELETE` sends them, in
   * order, and answers once the shop has answered them.
   */
  async #holding(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const order = decodeURIComponent(url.pathname.slice('/held/'.length));
    if (req.method === 'POST') this.#held.set(order, this.#held.get(order) ?? []);
    else if (req.method === 'DELETE') {
      const held = this.#held.get(order) ?? [];
      this.#held.delete(order);
      for (const event of held) await this.deliver(event);
    } else return this.#reply(res, 405, { error: { type: 'invalid_request_error', message: 'POST or DELETE.' } });
    res.writeHead(204);
    res.end();
  }

  /** The hosted page: what it charges, 'Pay' (the webhook follows, after `webhookDelayMs`) and 'Back to the shop'. */
  async #hostedPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const [, , id, action] = url.pathname.split('/');
    const session = this.sessions.get(id ?? '');
    if (!session) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('No such session');
      return;
    }
    if (req.method === 'POST' && action === 'pay' && session.status === 'open') {
      const event = this.pay(session.id);
      const held = this.#held.get(session.client_reference_id ?? '');
      if (held) held.push(event);
      else setTimeout(() => void this.deliver(event).catch(() => {}), this.webhookDelayMs);
      res.writeHead(303, { Location: session.success_url });
      res.end();
      return;
    }
    const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay with Stripe (fake)</title></head>
<body><main><h1>Pay ${escapeHtml(amount)}</h1><p>Session ${escapeHtml(session.id)} is ${session.status}.</p>
${session.status === 'open' ? `<form method="post" action="/pay/${session.id}/pay"><button>Pay ${escapeHtml(amount)}</button></form>` : ''}
<p><a href="${escapeHtml(session.cancel_url)}">Back to the shop</a></p></main></body></html>`);
  }
}
