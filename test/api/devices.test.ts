import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsTopic } from '../../src/server/auth/sessions';
import type { AccountSession } from '../../src/shared/api';
import { Client } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

/** Where the rider is logged in (docs/product.md §4): GET /api/account/sessions and ending sessions. */
let server: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  [server, behindProxy] = await Promise.all([startTestServer(), startTestServer({ TRUST_PROXY: '1' })]);
});
afterAll(() => Promise.all([server?.stop(), behindProxy?.stop()]));

const iPhone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const windows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A rider signed up on a phone, and logged in on more browsers, each a client of its own (its own address). */
async function rider(on: TestServer, others = 1, headers: Record<string, string> = {}) {
  const phone = new Client(on.url);
  const signedUp = await phone.json(
    'POST',
    '/api/auth/signup',
    { email: `rider-${randomUUID().slice(0, 8)}@example.com`, password: 'secret1' },
    { 'user-agent': iPhone, ...headers },
  );
  expect(signedUp.status).toBe(201);
  const user = signedUp.body.user;
  const browsers: Client[] = [];
  for (let i = 0; i < others; i++) {
    const browser = new Client(on.url);
    const loggedIn = await browser.json(
      'POST',
      '/api/auth/login',
      { email: user.email, password: 'secret1' },
      { 'user-agent': windows, ...headers },
    );
    expect(loggedIn.status).toBe(200);
    browsers.push(browser);
  }
  return { user, phone, browsers };
}

async function sessionsOf(client: Client): Promise<AccountSession[]> {
  const reply = await client.json('GET', '/api/account/sessions');
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.sessions;
}

/** The id of `client`'s own session, as its list says. */
async function ownId(client: Client): Promise<string> {
  const own = (await sessionsOf(client)).find((session) => session.current);
  if (!own) throw new Error('no current session in the list');
  return own.id;
}

async function expectLoggedOut(client: Client) {
  expectError(await client.session(), 401, 'auth/unauthenticated');
}

/** Sets the recorded last use of every session of the user `minutes` back, and tells the servers' caches. */
async function ageLastUse(uid: string, minutes: number): Promise<void> {
  await server.db.kysely
    .updateTable('session')
    .set({ updatedAt: server.db.timestamp(new Date(Date.now() - minutes * 60_000)) })
    .where('userId', '=', uid)
    .execute();
  await server.db.run(async (uow) => uow.publish(sessionsTopic, { type: 'ended', uid }));
}

describe('the list of sessions', () => {
  it('lists each log-in with its user agent, its own address and its times, marks this device, and sends no token', async () => {
    const { phone, browsers } = await rider(server);
    const [browser] = browsers as [Client];
    const started = Date.now();

    const listed = await sessionsOf(phone);
    expect(listed).toEqual([
      {
        id: expect.any(String),
        userAgent: iPhone,
        address: phone.address,
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: true,
      },
      {
        id: expect.any(String),
        userAgent: windows,
        address: browser.address,
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: false,
      },
    ]);
    for (const session of listed) {
      expect(Date.parse(session.createdAt)).toBeGreaterThan(started - 60_000);
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }
    // The other browser sees the same two sessions, itself as this device.
    const fromBrowser = await sessionsOf(browser);
    expect(fromBrowser.map((s) => [s.id, s.current])).toEqual([
      [listed[1]?.id, true],
      [listed[0]?.id, false],
    ]);

    // No token, in any field or spelling: the cookie's value is the token, then its signature.
    const text = JSON.stringify(listed);
    for (const client of [phone, browser]) {
      const token = decodeURIComponent(client.cookies.get('piaffe.session_token') ?? '').split('.')[0] ?? '';
      expect(token.length).toBeGreaterThan(16);
      expect(text).not.toContain(token);
    }
    expect(text).not.toMatch(/token/i);
  });

  it('records the address the connection came from, never one the client names in X-Forwarded-For', async () => {
    const { phone, browsers } = await rider(server, 1, { 'x-forwarded-for': '203.0.113.7' });
    expect((await sessionsOf(phone)).map((s) => s.address)).toEqual([phone.address, browsers[0]?.address]);
  });

  it("behind the proxy (TRUST_PROXY=1), records the address the proxy saw: X-Forwarded-For's last entry", async () => {
    const phone = new Client(behindProxy.url);
    const reply = await phone.json(
      'POST',
      '/api/auth/signup',
      { email: `rider-${randomUUID().slice(0, 8)}@example.com`, password: 'secret1' },
      { 'x-forwarded-for': '198.51.100.1, 192.0.2.44' },
    );
    expect(reply.status).toBe(201);
    const browser = new Client(behindProxy.url);
    const loggedIn = await browser.json(
      'POST',
      '/api/auth/login',
      { email: reply.body.user.email, password: 'secret1' },
      { 'x-forwarded-for': '2001:db8::5' },
    );
    expect(loggedIn.status).toBe(200);
    expect((await sessionsOf(phone)).map((s) => s.address)).toEqual(['192.0.2.44', '2001:db8::5']);
  });

  it('shows this device as used now, another as last recorded, and a session used again after a while as now', async () => {
    const { user, phone, browsers } = await rider(server);
    const [browser] = browsers as [Client];
    const ago = (session: AccountSession | undefined) => Date.now() - Date.parse(session?.lastUsedAt ?? '');

    // Within the step nothing is written down again; this device is in use by the very request that lists.
    await ageLastUse(user.uid, 3);
    const recent = await sessionsOf(phone);
    expect(ago(recent[0])).toBeLessThan(60_000);
    expect(ago(recent[1])).toBeGreaterThan(2.5 * 60_000);

    await ageLastUse(user.uid, 30);
    expect(ago((await sessionsOf(phone))[1])).toBeGreaterThan(29 * 60_000);
    // The browser's next request writes its use down, without making the request wait for it.
    expect((await browser.session()).status).toBe(200);
    await expect.poll(async () => ago((await sessionsOf(phone))[1]), { timeout: 2_000 }).toBeLessThan(60_000);
  });

  it('answers 401 to every route without a session', async () => {
    const stranger = new Client(server.url);
    expectError(await stranger.json('GET', '/api/account/sessions'), 401, 'auth/unauthenticated');
    expectError(await stranger.json('DELETE', `/api/account/sessions/${randomUUID()}`), 401, 'auth/unauthenticated');
    expectError(await stranger.json('POST', '/api/account/sessions/end-others'), 401, 'auth/unauthenticated');
  });
});

describe('ending sessions', () => {
  it("ends another device's session at once: its cookie is refused, its live stream is signed out", async () => {
    const { phone, browsers } = await rider(server);
    const [browser] = browsers as [Client];
    const stream = await EventStream.open(browser);
    await stream.next('snapshot');
    // The browser's session is in the cache of the server now.
    expect((await browser.session()).status).toBe(200);

    const reply = await phone.json('DELETE', `/api/account/sessions/${await ownId(browser)}`);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();

    await expectLoggedOut(browser);
    await stream.next('signed-out');
    await stream.ended();
    expect((await phone.session()).status).toBe(200);
    expect(phone.sessionCookies).not.toEqual([]);
    expect((await sessionsOf(phone)).map((s) => s.current)).toEqual([true]);
  });

  it("ending this device's own session is a log-out: the cookie is cleared and the session ends", async () => {
    const { phone, browsers } = await rider(server);
    const cookie = phone.cookieHeader;
    const reply = await phone.json('DELETE', `/api/account/sessions/${await ownId(phone)}`);
    expect(reply.status).toBe(204);
    expect(phone.sessionCookies).toEqual([]);
    expectError(
      await new Client(server.url).json('GET', '/api/auth/session', undefined, { cookie }),
      401,
      'auth/unauthenticated',
    );
    expect((await sessionsOf(browsers[0] as Client)).length).toBe(1);
  });

  it("'Log out of all other devices' ends every session but this one, on every route and stream", async () => {
    const { phone, browsers } = await rider(server, 3);
    const streams = await Promise.all(browsers.map((browser) => EventStream.open(browser)));
    for (const stream of streams) await stream.next('snapshot');

    const reply = await phone.json('POST', '/api/account/sessions/end-others');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ended: 3 });

    for (const browser of browsers) await expectLoggedOut(browser);
    for (const stream of streams) {
      await stream.next('signed-out');
      await stream.ended();
    }
    expect((await phone.session()).status).toBe(200);
    expect((await sessionsOf(phone)).map((s) => s.current)).toEqual([true]);
    expect((await phone.json('POST', '/api/account/sessions/end-others')).body).toEqual({ ended: 0 });
  });

  it("answers another rider's session exactly as one that is gone: 404, and ends nothing", async () => {
    const mine = await rider(server);
    const theirs = await rider(server);
    const theirId = await ownId(theirs.phone);
    const gone = await ownId(mine.browsers[0] as Client);
    expect((await mine.phone.json('DELETE', `/api/account/sessions/${gone}`)).status).toBe(204);

    const answers = [];
    // And ids that are no session's at all, a NUL among them (PostgreSQL refuses one in text: never a 5xx).
    for (const id of [theirId, gone, randomUUID(), '%00', 'x%00y', '%E2%80%AE']) {
      const reply = await mine.phone.json('DELETE', `/api/account/sessions/${id}`);
      expectError(reply, 404, 'auth/session-not-found');
      answers.push(reply.body);
    }
    expect(new Set(answers.map((body) => JSON.stringify(body))).size).toBe(1);
    expect((await theirs.phone.session()).status).toBe(200);
    expect((await sessionsOf(theirs.phone)).length).toBe(2);
    expect((await mine.phone.session()).status).toBe(200);
  });
});
