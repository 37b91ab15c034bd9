import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, randomEmail, withSize } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const sessionCookie = 'piaffe.session_token';

describe('sign-up', () => {
  it('answers 201 with {user: {uid, email, emailConfirmed: false}} and an HttpOnly, SameSite=Lax session cookie', async () => {
    const client = new Client(server.url);
    const email = randomEmail();
    const reply = await client.json('POST', '/api/auth/signup', { email, password: 'secret1' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ user: { uid: expect.any(String), email, emailConfirmed: false }, role: 'rider' });
    expect(reply.body.user.uid.length).toBeGreaterThan(0);

    const cookies = reply.headers.getSetCookie();
    const session = cookies.find((line) => line.startsWith(`${sessionCookie}=`));
    expect(session, cookies.join('\n')).toBeDefined();
    expect(session).toMatch(/;\s*HttpOnly(;|$)/i);
    expect(session).toMatch(/;\s*SameSite=Lax(;|$)/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/i);

    const me = await client.session();
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: reply.body.user, role: 'rider' });
    expect(await server.rowsOf(reply.body.user.uid, email)).toMatchObject({ user: 1, session: 1, account: 1 });
  });

  it('stores the e-mail in lower case', async () => {
    const client = new Client(server.url);
    const email = randomEmail();
    const reply = await client.json('POST', '/api/auth/signup', { email: email.toUpperCase(), password: 'secret1' });
    expect(reply.status).toBe(201);
    expect(reply.body.user.email).toBe(email);
    expect((await client.session()).body.user.email).toBe(email);
    // The address logs in whatever its case.
    expect((await new Client(server.url).login(email, 'secret1')).status).toBe(200);
    expect((await new Client(server.url).login(email.replace('rider', 'RiDeR'), 'secret1')).status).toBe(200);
  });

  it('refuses an e-mail already in use, also when it differs only in case, and keeps the first account', async () => {
    const first = new Client(server.url);
    const user = await first.signup();

    const again = new Client(server.url);
    const same = await again.json('POST', '/api/auth/signup', { email: user.email, password: 'other12' });
    expectError(same, 409, 'auth/email-already-in-use');
    expect(same.headers.getSetCookie().some((line) => line.startsWith(`${sessionCookie}=`))).toBe(false);
    const upper = await again.json('POST', '/api/auth/signup', {
      email: user.email.toUpperCase(),
      password: 'other12',
    });
    expectError(upper, 409, 'auth/email-already-in-use');
    expect(again.cookies.size).toBe(0);
    expectError(await again.session(), 401, 'auth/unauthenticated');

    // The first account is untouched: its password is still the one it signed up with.
    expect((await first.session()).status).toBe(200);
    expectError(await new Client(server.url).login(user.email, 'other12'), 401, 'auth/invalid-credential');
    expect((await new Client(server.url).login(user.email, 'secret1')).status).toBe(200);
    expect((await server.rowsOf(user.uid, user.email)).user).toBe(1);
  });

  it('refuses an invalid e-mail and a weak password, creating nothing', async () => {
    const client = new Client(server.url);
    const email = randomEmail();
    expectError(
      await client.json('POST', '/api/auth/signup', { email: 'no-at-sign.example.com', password: 'secret1' }),
      400,
      'auth/invalid-email',
    );
    expectError(await client.json('POST', '/api/auth/signup', { email, password: 'short' }), 400, 'auth/weak-password');
    expectError(
      await client.json('POST', '/api/auth/signup', { email, password: 'x'.repeat(17) }),
      400,
      'auth/weak-password',
    );
    expect(client.cookies.size).toBe(0);
    expectError(await new Client(server.url).login(email, 'short1'), 401, 'auth/invalid-credential');
    expect((await server.rowsOf('-', email)).user).toBe(0);
  });

  it('accepts passwords of exactly 6 and 16 characters', async () => {
    for (const password of ['abcdef', 'abcdefghijklmnop']) {
      const client = new Client(server.url);
      const user = await client.signup(randomEmail(), password);
      expect((await new Client(server.url).login(user.email, password)).status).toBe(200);
    }
  });
});

describe('log-in', () => {
  it('answers 200 with the user and a new session with the right password', async () => {
    const user = await new Client(server.url).signup();
    const client = new Client(server.url);
    const reply = await client.login(user.email, 'secret1');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ user, role: 'rider' });
    const cookie = reply.headers.getSetCookie().find((line) => line.startsWith(`${sessionCookie}=`));
    expect(cookie).toMatch(/;\s*HttpOnly(;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax(;|$)/i);
    expect((await client.session()).body).toEqual({ user, role: 'rider' });
    expect((await server.rowsOf(user.uid, user.email)).session).toBe(2);
  });

  it('answers a wrong password and an unknown e-mail with the same 401 auth/invalid-credential', async () => {
    const user = await new Client(server.url).signup();
    const client = new Client(server.url);
    const wrong = await client.login(user.email, 'wrong-1');
    const unknown = await client.login(randomEmail(), 'secret1');
    expectError(wrong, 401, 'auth/invalid-credential');
    expectError(unknown, 401, 'auth/invalid-credential');
    expect(unknown.body).toEqual(wrong.body);
    expect(client.cookies.size).toBe(0);
    expectError(await client.session(), 401, 'auth/unauthenticated');
    expect((await server.rowsOf(user.uid, user.email)).session).toBe(1);
  });

  it('checks the format first: 400 auth/invalid-email and auth/invalid-password', async () => {
    const client = new Client(server.url);
    expectError(await client.login('not-an-email', 'secret1'), 400, 'auth/invalid-email');
    expectError(await client.login(randomEmail(), 'short'), 400, 'auth/invalid-password');
    expectError(await client.login(randomEmail(), 'y'.repeat(17)), 400, 'auth/invalid-password');
  });
});

describe('session', () => {
  it('answers 401 auth/unauthenticated without a cookie, and with a made-up or tampered one', async () => {
    const client = new Client(server.url);
    expectError(await client.session(), 401, 'auth/unauthenticated');
    expectError(
      await client.raw('GET', '/api/auth/session', { headers: { cookie: `${sessionCookie}=made-up.signature` } }),
      401,
      'auth/unauthenticated',
    );
    const owner = new Client(server.url);
    await owner.signup();
    const token = owner.cookies.get(sessionCookie) ?? '';
    const tampered = `${token.slice(0, 5)}${token[5] === 'a' ? 'b' : 'a'}${token.slice(6)}`;
    expectError(
      await client.raw('GET', '/api/auth/session', { headers: { cookie: `${sessionCookie}=${tampered}` } }),
      401,
      'auth/unauthenticated',
    );
    expect((await owner.session()).status).toBe(200);
  });
});

describe('log-out', () => {
  it('answers 204, clears the cookie, and the old cookie no longer works', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const other = new Client(server.url);
    await other.login(user.email, 'secret1');
    const oldCookie = client.cookieHeader;
    expect(oldCookie).toContain(`${sessionCookie}=`);

    const reply = await client.logout();
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    const cleared = reply.headers.getSetCookie().find((line) => line.startsWith(`${sessionCookie}=`));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(client.sessionCookies).toEqual([]);
    // The device cookie stays: it is not a session, and it keeps this browser's log-ins out of the throttle.
    expect(client.cookies.has('piaffe.device')).toBe(true);

    // Replaying the copy of the cookie: the session has ended on the server, not only in the browser.
    const replay = (method: string, path: string, body?: unknown) =>
      new Client(server.url).json(method, path, body, { cookie: oldCookie });
    expectError(await replay('GET', '/api/auth/session'), 401, 'auth/unauthenticated');
    expectError(await replay('GET', '/api/cart'), 401, 'auth/unauthenticated');
    expectError(await replay('POST', '/api/cart', withSize('1')), 401, 'auth/unauthenticated');
    expectError(await replay('DELETE', '/api/account'), 401, 'auth/unauthenticated');
    expect(await server.rowsOf(user.uid, user.email)).toMatchObject({ user: 1, session: 1, cart_item: 0 });

    // Only this session ended: the other device is still logged in.
    expect((await other.session()).body).toEqual({ user, role: 'rider' });
  });

  it('answers 204 without a session too, and changes nothing', async () => {
    const reply = await new Client(server.url).logout();
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
  });
});
