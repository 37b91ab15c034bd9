import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type Mailbox, type ReceivedMail, startMailbox } from '../../scripts/mailbox';
import type { Address } from '../../src/shared/address';
import type { CartItem, SessionUser } from '../../src/shared/api';
import type { Delivery } from '../../src/shared/delivery';
import type { Order } from '../../src/shared/orders';
import { deliveryOf } from '../../src/shared/payment/payment-methods';

/** A complete delivery address. */
export const address: Address = {
  fullName: 'Ada Rider',
  line1: '12 Stable Row',
  line2: '',
  city: 'Wellington',
  region: 'US-FL',
  postalCode: '33414',
  country: 'US',
  phone: '',
};

/** What shipping cost before the owner could set zones, and what a new shop's one zone charges: $25.00, free from $500.00. */
export const todaysShipping = { flatCents: 2500, freeFromCents: 50000 } as const;

/** A fresh idempotency key, as a checkout page makes one. */
export function orderKey(): string {
  return randomBytes(16).toString('base64url');
}

/** A size each product of a new shop comes in (docs/product.md §12): the one tests add unless they choose. */
const testSizes: Record<string, string> = {
  '1': 'Full',
  '2': '17"',
  '3': '8',
  '4': 'M',
  '5': '8',
  '6': 'Full',
  '7': 'M',
  '8': 'Full',
};

/** The size tests add of `itemid`; an item the shop does not sell gets one no product has. */
export function sizeOf(itemid: string): string {
  return testSizes[itemid] ?? 'One size';
}

/** The body of an add to the cart: the item in the size tests use. */
export function withSize(itemid: string): { itemid: string; size: string } {
  return { itemid, size: sizeOf(itemid) };
}

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  body: any;
}

/** A reply of the client's, with its body's bytes as sent (a PDF, a ZIP). */
export interface ClientReply extends Reply {
  bytes: Buffer;
}

/**
 * A browser-like API client: keeps its cookies, sends JSON, and reads any reply without throwing. Each client
 * connects from an address of its own (`address`, a loopback address by default), as riders on their own
 * lines do, so that the per-address limits count each client apart.
 */
export class Client {
  cookies = new Map<string, string>();
  user?: SessionUser;

  constructor(
    readonly baseUrl: string,
    readonly address: string = loopbackAddress(),
  ) {}

  /** The names of the cookies that carry a session: all but the device cookie, which outlives log-outs on purpose. */
  get sessionCookies(): string[] {
    return [...this.cookies.keys()].filter((name) => !name.endsWith('piaffe.device'));
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async raw(
    method: string,
    path: string,
    init: {
      body?: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ClientReply> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader;
    // A string body gets Content-Type text/plain unless one is given, as fetch would send it. A stream goes
    // out chunked, without Content-Length.
    if (typeof init.body === 'string' && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
    }
    const response = await send(this.baseUrl + path, method, headers, init.body, this.address);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = response.bytes.toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, headers: response.headers, body, bytes: response.bytes };
  }

  json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ClientReply> {
    return this.raw(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
  }

  async signup(email = randomEmail(), password = 'secret1'): Promise<SessionUser> {
    const reply = await this.json('POST', '/api/auth/signup', { email, password });
    if (reply.status !== 201) throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    this.user = reply.body.user;
    return reply.body.user;
  }

  /**
   * Opens the newest link to confirm the rider's address that the shop has e-mailed, as the rider would (the link's
   * token, from the e-mail received over SMTP, sent to the shop); waits for the e-mail if it is not there yet.
   */
  async confirmEmail(since = 0): Promise<void> {
    const user = this.user;
    if (!user) throw new Error('confirmEmail: sign up or log in first');
    const token = await confirmationToken(user.email, since);
    const reply = await this.json('POST', '/api/auth/email-confirmation', { token });
    if (reply.status !== 200) throw new Error(`confirmation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    this.user = { ...user, emailConfirmed: true };
  }

  /** Signs up and confirms the address through the e-mail the shop sent: a rider who may order. */
  async signupConfirmed(email = randomEmail(), password = 'secret1'): Promise<SessionUser> {
    // Only a link sent after this sign-up: an account of this address made and deleted before had its own.
    const since = await mailMark();
    await this.signup(email, password);
    await this.confirmEmail(since);
    return this.user as SessionUser;
  }

  async login(email: string, password: string): Promise<Reply> {
    const reply = await this.json('POST', '/api/auth/login', { email, password });
    if (reply.status === 200) this.user = reply.body.user;
    return reply;
  }

  async logout(): Promise<Reply> {
    const reply = await this.json('POST', '/api/auth/logout');
    if (reply.status === 204) this.user = undefined;
    return reply;
  }

  session(): Promise<Reply> {
    return this.json('GET', '/api/auth/session');
  }

  /** Adds a row of the product, in `size` (by default the one `sizeOf` gives). */
  async add(itemid: string, size = sizeOf(itemid)): Promise<CartItem> {
    const reply = await this.json('POST', '/api/cart', { itemid, size });
    if (reply.status !== 201) throw new Error(`add failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.item;
  }

  /** Sends the order of the cart as it is now (its rows, the address above, bank transfer); fields may be replaced. */
  /**
   * Orders the cart as the checkout page does: the total it sends is the quote's for the same address, delivery,
   * method and code (unless `body` names one); a quote refused (the address or the code) sends 0, and the order is
   * refused for its own reason first.
   */
  async placeOrder(body: Record<string, unknown> = {}): Promise<Reply> {
    const items = await this.cart();
    const order: Record<string, unknown> = {
      address,
      paymentMethod: 'bank-transfer',
      idempotencyKey: orderKey(),
      cartItemIds: items.map((item) => item.id),
      ...body,
    };
    if (!('totalCents' in body)) order.totalCents = await this.quotedTotal(order);
    return this.json('POST', '/api/orders', order);
  }

  /** The checkout's quote for an order's body, as the page asks it: its total, or 0 when it is refused. */
  async quotedTotal(order: Record<string, unknown>): Promise<number> {
    const place = (order.address ?? {}) as Partial<Address>;
    const query = new URLSearchParams({
      delivery: deliveryOf(String(order.paymentMethod), order.delivery as Delivery | undefined),
      country: String(place.country ?? ''),
      region: String(place.region ?? ''),
      postalCode: String(place.postalCode ?? ''),
      ...(typeof order.shippingMethod === 'string' ? { method: order.shippingMethod } : {}),
      ...(typeof order.discountCode === 'string' ? { discountCode: order.discountCode } : {}),
    });
    const quote = await this.json('GET', `/api/checkout/quote?${query}`);
    return quote.status === 200 ? quote.body.money.totalCents : 0;
  }

  /** Adds the products and orders them; the order placed. */
  async order(...itemids: string[]): Promise<Order> {
    for (const itemid of itemids) await this.add(itemid);
    const reply = await this.placeOrder();
    if (reply.status !== 201) throw new Error(`order failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.order;
  }

  async cart(): Promise<CartItem[]> {
    const reply = await this.json('GET', '/api/cart');
    if (reply.status !== 200) throw new Error(`cart failed: ${reply.status}`);
    return reply.body.items;
  }
}

/**
 * A rider who may order (`signupConfirmed`) on the shop at `url`, from `address` (a loopback address of its own by
 * default): the set-up most API tests start from.
 */
export async function confirmedRider(url: string, address?: string): Promise<Client> {
  const client = new Client(url, address);
  await client.signupConfirmed();
  return client;
}

/** The same browser (the same cookies) talking to another server of the shop. */
export function sameBrowserOn(url: string, client: Client): Client {
  const other = new Client(url, client.address);
  other.cookies = new Map(client.cookies);
  other.user = client.user;
  return other;
}

/**
 * Sends `text` as it is on a new connection (what no well-behaved HTTP client would send) and reads the one
 * answer until the server closes the connection.
 */
export function rawRequest(url: string, text: string): Promise<Reply> {
  const { socket, answer } = openRequest(url, text);
  socket.end();
  return answer;
}

/**
 * Sends `text` (a request's head and as much of its body as the test likes) on a new connection from 127.0.0.1 and
 * leaves the connection open: the test sends the rest through `socket`, slowly, or hangs up. `answer` is what the
 * server sent before the connection closed.
 */
export function openRequest(url: string, text: string | Uint8Array): { socket: Socket; answer: Promise<Reply> } {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = new Promise<Reply>((resolve, reject) => {
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
    socket.on('error', reject);
  });
  socket.write(text);
  return { socket, answer };
}

/** The answer in `text`, after any interim answer (`100 Continue`) as clients skip it. */
function parseAnswer(text: string): Reply {
  let answer = text;
  while (/^HTTP\/1\.1 1\d\d /.test(answer)) answer = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const bodyText = rest.join('\r\n\r\n');
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {}
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The subject of the e-mail that carries the link to confirm an address. */
export const confirmationSubject = 'Please confirm your e-mail address';

/** The mailboxes of this test process's shops (`testMailbox`), where a rider's e-mails arrive. */
const mailboxes = new Set<Mailbox>();

/**
 * A mailbox for a test shop to send to (SMTP_URL: its `url`), which riders' `confirmEmail` reads: every rider's
 * address is its own, so it does not matter which shop's mailbox holds the link (two servers share one outbox).
 */
export async function testMailbox(options?: Parameters<typeof startMailbox>[0]): Promise<Mailbox> {
  const mailbox = await startMailbox(options);
  mailboxes.add(mailbox);
  const close = mailbox.close;
  mailbox.close = () => {
    mailboxes.delete(mailbox);
    return close();
  };
  return mailbox;
}

/**
 * A moment (epoch ms) after every e-mail the test mailboxes have received so far, and at or before any they receive
 * from now on: the `since` of `mailedToken` for the e-mails a test brings about next. (Not just `Date.now()`: an e-mail
 * received in that same millisecond would count as new, and its token be taken for the next one's.)
 */
export async function mailMark(): Promise<number> {
  const since = Date.now() + 1;
  while (Date.now() < since) await new Promise((resolve) => setTimeout(resolve, 1));
  return since;
}

/**
 * The token of the newest link with `subject` to `email` that a test mailbox has received (at `since`, epoch ms, or
 * later), waiting up to 10 s for one: the shop's links, whichever of its servers sent them.
 */
export async function mailedToken(email: string, subject: string, since = 0): Promise<string> {
  const isLink = (mail: ReceivedMail) =>
    mail.to.includes(email) && mail.parsed.subject === subject && mail.receivedAt.getTime() >= since;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const newest = [...mailboxes]
      .flatMap((mailbox) => mailbox.mails.filter(isLink))
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
      .at(-1);
    const token = /#token=([A-Za-z0-9_-]+)/.exec(newest?.parsed.text ?? '')?.[1];
    if (token) return token;
    if (Date.now() > deadline) throw new Error(`no '${subject}' to ${email} reached a test mailbox within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The token of the newest link to confirm `email` (`mailedToken`). */
export function confirmationToken(email: string, since = 0): Promise<string> {
  return mailedToken(email, confirmationSubject, since);
}

export function randomEmail(): string {
  return `rider-${randomUUID().slice(0, 8)}@example.com`;
}

let lastLoopback = 0;

/**
 * A fresh source address for a test connection. Every 127.x.y.z is the loopback on Linux; this process
 * hands them out from 127.1.0.0 on (127.0.x.y are left to tests that pick their own).
 */
export function loopbackAddress(): string {
  const n = ++lastLoopback;
  return `127.${1 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** One HTTP/1.1 request from `localAddress`, its whole answer read. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | ReadableStream<Uint8Array> | undefined,
  localAddress: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  // Node frames a DELETE body only with a Content-Length (it sends GET, HEAD and DELETE unchunked).
  const length =
    typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.length : undefined;
  const framed = length === undefined ? headers : { 'content-length': String(length), ...headers };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers: framed, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const replyHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : [value ?? '']) replyHeaders.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: replyHeaders, bytes: Buffer.concat(chunks) });
      });
    });
    outgoing.on('error', reject);
    if (body instanceof ReadableStream) {
      void (async () => {
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) outgoing.write(chunk);
        outgoing.end();
      })().catch(reject);
    } else outgoing.end(body);
  });
}
