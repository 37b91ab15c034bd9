import { randomUUID } from 'node:crypto';
import type { CartItem, SessionUser } from '../../src/shared/api';

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  body: any;
}

/** A browser-like API client: keeps its cookies, sends JSON, and reads any reply without throwing. */
export class Client {
  cookies = new Map<string, string>();
  user?: SessionUser;

  constructor(readonly baseUrl: string) {}

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
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader;
    // A string body gets Content-Type text/plain unless one is given; bytes and streams get none. A stream
    // goes out chunked, without Content-Length; fetch needs `duplex: 'half'` for that.
    const duplex = init.body instanceof ReadableStream ? { duplex: 'half' } : {};
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: init.body,
      redirect: 'manual',
      ...duplex,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, headers: response.headers, body };
  }

  json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
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

  async add(itemid: string): Promise<CartItem> {
    const reply = await this.json('POST', '/api/cart', { itemid });
    if (reply.status !== 201) throw new Error(`add failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.item;
  }

  async cart(): Promise<CartItem[]> {
    const reply = await this.json('GET', '/api/cart');
    if (reply.status !== 200) throw new Error(`cart failed: ${reply.status}`);
    return reply.body.items;
  }
}

export function randomEmail(): string {
  return `rider-${randomUUID().slice(0, 8)}@example.com`;
}
