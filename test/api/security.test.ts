import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartItem, SessionUser } from '../../src/shared/api';
import { Client, type Reply, randomEmail, rawRequest, withSize } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const evil = 'https://evil.example';

describe('cross-origin state changes are refused', () => {
  let client: Client;
  let user: SessionUser;
  let item: CartItem;
  /** The e-mail the refused cross-origin sign-ups try to register. */
  const strangerEmail = randomEmail();
  beforeAll(async () => {
    client = new Client(server.url);
    user = await client.signup();
    item = await client.add('4');
  });

  /** Everything the member has, which no refused request may change. */
  async function expectUntouched() {
    expect((await client.session()).body).toEqual({ user, role: 'rider' });
    expect(await client.cart()).toEqual([item]);
    expect(await server.rowsOf(user.uid, user.email)).toEqual({
      user: 1,
      session: 1,
      account: 1,
      cart_item: 1,
      login_attempt: 0,
      passkey: 0,
    });
    expect((await server.rowsOf('-', strangerEmail)).user).toBe(0);
  }

  const attempts: Array<[string, string, () => string, () => unknown]> = [
    ['POST', 'sign-up', () => '/api/auth/signup', () => ({ email: strangerEmail, password: 'secret1' })],
    ['POST', 'log-in', () => '/api/auth/login', () => ({ email: user.email, password: 'secret1' })],
    ['POST', 'log-out', () => '/api/auth/logout', () => undefined],
    ['PUT', 'new e-mail', () => '/api/account/email', () => ({ email: randomEmail() })],
    ['PUT', 'new password', () => '/api/account/password', () => ({ password: 'new-pass' })],
    ['DELETE', 'delete account', () => '/api/account', () => undefined],
    ['POST', 'cart add', () => '/api/cart', () => withSize('1')],
    ['DELETE', 'cart delete', () => `/api/cart/${item.id}`, () => undefined],
  ];

  it.each(attempts)(
    '%s %s with Origin: https://evil.example is 403 request/cross-origin',
    async (method, _name, path, body) => {
      const reply = await client.json(method, path(), body(), { origin: evil });
      expectError(reply, 403, 'request/cross-origin');
      expect(reply.headers.getSetCookie()).toEqual([]);
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      await expectUntouched();
    },
  );

  it.each(attempts)(
    '%s %s with Sec-Fetch-Site: cross-site and no Origin is 403 request/cross-origin',
    async (method, _name, path, body) => {
      const reply = await client.json(method, path(), body(), { 'sec-fetch-site': 'cross-site' });
      expectError(reply, 403, 'request/cross-origin');
      await expectUntouched();
    },
  );

  it.each([
    ['null', 'null'],
    ['another port', () => `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`],
    ['https instead of http', () => server.url.replace('http:', 'https:')],
    ['a look-alike host', () => `${server.url}.evil.example`],
  ] as const)('refuses Origin: %s', async (_name, origin) => {
    const value = typeof origin === 'function' ? origin() : origin;
    expectError(await client.json('POST', '/api/cart', withSize('1'), { origin: value }), 403, 'request/cross-origin');
    await expectUntouched();
  });

  it('refuses an Origin that matches a forged Host header, never trusting what the request claims', async () => {
    const { port } = new URL(server.url);
    for (const host of [`evil.example:${port}`, 'evil.example']) {
      const forged = { host, origin: `http://${host}` };
      expectError(await client.json('POST', '/api/cart', withSize('1'), forged), 403, 'request/cross-origin');
    }
    await expectUntouched();
  });

  it("accepts the server's own origins (PUBLIC_URL is unset), and same-origin or user-initiated fetch metadata", async () => {
    const { port } = new URL(server.url);
    for (const own of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const added = await client.json('POST', '/api/cart', withSize('2'), { origin: own });
      expect(added.status, own).toBe(201);
      const removed = await client.json('DELETE', `/api/cart/${added.body.item.id}`, undefined, { origin: own });
      expect(removed.status, own).toBe(204);
    }
    for (const site of ['same-origin', 'none']) {
      const reply = await client.json('POST', '/api/cart', withSize('2'), { 'sec-fetch-site': site });
      expect(reply.status).toBe(201);
      expect((await client.json('DELETE', `/api/cart/${reply.body.item.id}`)).status).toBe(204);
    }
    await expectUntouched();
  });

  it('lets a cross-origin GET through but never grants CORS, so another site cannot read the answer', async () => {
    const reply = await client.json('GET', '/api/cart', undefined, { origin: evil });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await client.raw('OPTIONS', '/api/cart', {
      headers: {
        origin: evil,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('still accepts requests with the own origin after all the refusals', async () => {
    await expectUntouched();
  });
});

describe('response headers', () => {
  const json = { 'content-type': 'application/json' };
  const bigCookie = { cookie: `crumbs=${'x'.repeat(20_000)}` };
  /** A sample of every kind of response: API successes and errors, the stream, pages, files, redirects. */
  async function sample(): Promise<Array<[string, Reply]>> {
    const member = new Client(server.url);
    await member.signup();
    const item = await member.add('1');
    const anonymous = new Client(server.url);
    const replies: Array<[string, Reply]> = [
      ['GET /healthz', await anonymous.raw('GET', '/healthz')],
      [
        'POST /api/auth/signup 201',
        await anonymous.json('POST', '/api/auth/signup', { email: randomEmail(), password: 'secret1' }),
      ],
      ['GET /api/auth/session 200', await member.session()],
      ['GET /api/auth/session 401', await new Client(server.url).session()],
      ['GET /api/cart 200', await member.json('GET', '/api/cart')],
      ['POST /api/cart 201', await member.json('POST', '/api/cart', withSize('2'))],
      ['DELETE /api/cart/:id 204', await member.json('DELETE', `/api/cart/${item.id}`)],
      ['POST /api/cart 400', await member.json('POST', '/api/cart', withSize('0'))],
      ['POST /api/cart 403', await member.json('POST', '/api/cart', withSize('1'), { origin: evil })],
      ['POST /api/cart 413', await member.json('POST', '/api/cart', withSize('x'.repeat(20_000)))],
      ['POST /api/cart 415', await member.raw('POST', '/api/cart', { body: '{"itemid":"1"}' })],
      ['GET /api/nope 404', await anonymous.raw('GET', '/api/nope')],
      ['POST /api/auth/logout 204', await anonymous.json('POST', '/api/auth/logout')],
      ['GET / redirect', await anonymous.raw('GET', '/')],
      ['GET /home', await anonymous.raw('GET', '/home')],
      ['GET /cart', await member.raw('GET', '/cart')],
      ['GET /signup-login', await anonymous.raw('GET', '/signup-login')],
      ['GET /manage-account', await member.raw('GET', '/manage-account')],
      ['GET /nope', await anonymous.raw('GET', '/nope')],
      ['GET /api/cart 401', await anonymous.raw('GET', '/api/cart')],
      ['POST /api/auth/login 400', await anonymous.json('POST', '/api/auth/login', { email: 'x' })],
      ['POST /api/cart 400 (bad JSON)', await member.raw('POST', '/api/cart', { body: '{', headers: json })],
      ['GET /pictures/anky-bridle.svg', await anonymous.raw('GET', '/pictures/anky-bridle.svg')],
      ['POST /home (not a page method)', await anonymous.raw('POST', '/home')],
      ['GET /api/cart 431', await anonymous.raw('GET', '/api/cart', { headers: bigCookie })],
      ['malformed request 400', await rawRequest(server.url, 'NOT HTTP\r\n\r\n')],
    ];
    const index = String(replies.find(([name]) => name === 'GET /home')?.[1].body ?? '');
    const script = /<script[^>]*\bsrc="([^"]+)"/.exec(index)?.[1];
    if (!script) throw new Error('dist/index.html names no script: run npm run build first');
    replies.push([`GET ${script} (hashed asset)`, await anonymous.raw('GET', script)]);
    const stream = await fetch(`${server.url}/api/cart/stream`, { headers: { cookie: member.cookieHeader } });
    replies.push(['GET /api/cart/stream', { status: stream.status, headers: stream.headers, body: undefined }]);
    await stream.body?.cancel();
    return replies;
  }

  let replies: Array<[string, Reply]>;
  beforeAll(async () => {
    replies = await sample();
  });

  it('every response has a CSP with script-src self and frame-ancestors none, no unsafe-inline, and nosniff', () => {
    expect(replies.length).toBeGreaterThan(15);
    for (const [name, reply] of replies) {
      const csp = reply.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .filter((d) => d[0])
          .map(([key = '', ...values]) => [key, values]),
      );
      expect(directives.get('script-src'), `${name}: ${csp}`).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors'), `${name}: ${csp}`).toEqual(["'none'"]);
      expect(directives.get('default-src'), `${name}: ${csp}`).toEqual(["'self'"]);
      expect(directives.get('object-src'), `${name}: ${csp}`).toEqual(["'none'"]);
      expect(directives.get('base-uri'), `${name}: ${csp}`).toEqual(["'none'"]);
      expect(csp, name).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(reply.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(reply.headers.get('x-frame-options'), name).toBe('DENY');
      expect(reply.headers.get('access-control-allow-origin'), name).toBeNull();
      expect(reply.headers.get('referrer-policy'), name).toBe('strict-origin-when-cross-origin');
      // Served over plain http: HSTS would mean nothing, and is not sent (see the https tests below).
      expect(reply.headers.get('strict-transport-security'), name).toBeNull();
    }
  });

  it('pages are for this browser only and revalidated (private, no-cache), hashed assets are immutable, pictures cached for an hour', () => {
    const pages = replies.filter(([name]) => /^GET \/(home|cart|signup-login|manage-account|nope)$/.test(name));
    expect(pages).toHaveLength(5);
    for (const [name, reply] of pages) {
      // A page's HTML says who is signed in (ADR 0028): no shared cache may keep it.
      expect(reply.headers.get('cache-control'), name).toBe('private, no-cache');
      expect(reply.headers.get('content-type'), name).toMatch(/^text\/html\b/);
    }
    const [assetName, asset] = replies.find(([name]) => name.endsWith('(hashed asset)')) ?? ['', undefined];
    expect(asset?.status, assetName).toBe(200);
    expect(asset?.headers.get('cache-control'), assetName).toBe('public, max-age=31536000, immutable');
    const picture = replies.find(([name]) => name.startsWith('GET /pictures/'))?.[1];
    expect(picture?.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('API and health responses carry Cache-Control: no-store', () => {
    const api = replies.filter(([name]) => /\/api\/|\/healthz/.test(name));
    expect(api.length).toBeGreaterThan(10);
    for (const [name, reply] of api) expect(reply.headers.get('cache-control'), name).toBe('no-store');
  });

  it("requests Node's parser refuses get our error shape too: a 20 KB cookie 431, a malformed request 400", () => {
    const answer = (name: string) => replies.find(([n]) => n === name)?.[1] as Reply;
    expectError(answer('GET /api/cart 431'), 431, 'request/header-too-large');
    expectError(answer('malformed request 400'), 400, 'request/malformed');
  });

  it('API errors are JSON, never HTML', () => {
    for (const [name, reply] of replies.filter(([n]) => /\/api\/.* [45]\d\d$/.test(n))) {
      expect(reply.headers.get('content-type'), name).toMatch(/^application\/json/);
      expect(reply.body, name).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('session cookies', () => {
  it("a request carrying two users' cookies gets one of the two sessions, never a mix or an error", async () => {
    const alice = new Client(server.url);
    const bob = new Client(server.url);
    const a = await alice.signup();
    const b = await bob.signup();
    const both = await new Client(server.url).json('GET', '/api/auth/session', undefined, {
      cookie: `${alice.cookieHeader}; ${bob.cookieHeader}`,
    });
    if (both.status === 200)
      expect([
        { user: a, role: 'rider' },
        { user: b, role: 'rider' },
      ]).toContainEqual(both.body);
    else expectError(both, 401, 'auth/unauthenticated');
  });

  it('a session token from the sign-up cannot be used without its signature', async () => {
    const client = new Client(server.url);
    await client.signup();
    const signed = client.cookies.get('piaffe.session_token') ?? '';
    const token = decodeURIComponent(signed).split('.')[0] ?? '';
    expect(token.length).toBeGreaterThan(10);
    const reply = await new Client(server.url).json('GET', '/api/auth/session', undefined, {
      cookie: `piaffe.session_token=${token}`,
    });
    expectError(reply, 401, 'auth/unauthenticated');
  });
});

describe('served over https (PUBLIC_URL=https://shop.example)', () => {
  const publicOrigin = 'https://shop.example';
  let secure: TestServer;
  beforeAll(async () => {
    // The server itself still listens on plain http, as it does behind a TLS-terminating proxy.
    secure = await startTestServer({ PUBLIC_URL: publicOrigin });
  });
  afterAll(() => secure.stop());

  it('sends Strict-Transport-Security on pages and the API', async () => {
    const anonymous = new Client(secure.url);
    for (const reply of [
      await anonymous.raw('GET', '/home'),
      await anonymous.session(),
      await anonymous.raw('GET', '/healthz'),
    ]) {
      expect(reply.headers.get('strict-transport-security')).toMatch(/^max-age=(\d{8,})/);
      expect(
        Number(/max-age=(\d+)/.exec(reply.headers.get('strict-transport-security') ?? '')?.[1]),
      ).toBeGreaterThanOrEqual(180 * 24 * 60 * 60);
    }
  });

  it('marks the session and device cookies Secure (session cookie with the __Secure- prefix), and the flow works', async () => {
    const client = new Client(secure.url);
    const origin = { origin: publicOrigin };
    const signup = await client.json('POST', '/api/auth/signup', { email: randomEmail(), password: 'secret1' }, origin);
    expect(signup.status).toBe(201);
    const cookies = signup.headers.getSetCookie();
    const session = cookies.find((line) => line.startsWith('__Secure-piaffe.session_token=')) ?? '';
    expect(session, cookies.join('\n')).toMatch(/;\s*Secure(;|$)/i);
    expect(session).toMatch(/;\s*HttpOnly(;|$)/i);
    expect(session).toMatch(/;\s*SameSite=Lax(;|$)/i);
    const device = cookies.find((line) => line.startsWith('__Secure-piaffe.device=')) ?? '';
    expect(device, cookies.join('\n')).toMatch(/;\s*Secure(;|$)/i);
    for (const line of cookies) expect(line, line).toMatch(/;\s*Secure(;|$)/i);
    const user = signup.body.user;

    // Everything else works for requests that come from the public origin...
    expect((await client.session()).body).toEqual({ user, role: 'rider' });
    const added = await client.json('POST', '/api/cart', withSize('3'), origin);
    expect(added.status).toBe(201);
    expect((await client.json('DELETE', `/api/cart/${added.body.item.id}`, undefined, origin)).status).toBe(204);
    const again = new Client(secure.url);
    expect(
      (await again.json('POST', '/api/auth/login', { email: user.email, password: 'secret1' }, origin)).status,
    ).toBe(200);
    // ...and not for another origin: not the http one of the same host, even with a Host header to match,
    // and not the server's own address, which is not how this shop is reached.
    const { port } = new URL(secure.url);
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://shop.example' },
      { origin: 'http://shop.example', host: 'shop.example' },
      { origin: `http://127.0.0.1:${port}` },
      { origin: `http://localhost:${port}`, host: `localhost:${port}` },
    ]) {
      const reply = await client.json('POST', '/api/cart', withSize('3'), headers);
      expectError(reply, 403, 'request/cross-origin');
    }
    const oldCookie = client.cookieHeader;
    expect((await client.json('POST', '/api/auth/logout', undefined, origin)).status).toBe(204);
    expectError(
      await new Client(secure.url).json('GET', '/api/auth/session', undefined, { cookie: oldCookie }),
      401,
      'auth/unauthenticated',
    );
    expect((await again.session()).body).toEqual({ user, role: 'rider' });
  });
});
