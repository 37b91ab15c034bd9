import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, randomEmail } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** A user logged in on two clients (two sessions), with one cart item. */
async function twoDevices() {
  const first = new Client(server.url);
  const user = await first.signup();
  const second = new Client(server.url);
  expect((await second.login(user.email, 'secret1')).status).toBe(200);
  const item = await first.add('4');
  return { user, first, second, item, cookies: [first.cookieHeader, second.cookieHeader] };
}

async function expectCookiesRefused(cookies: string[]) {
  for (const cookie of cookies) {
    const reply = await new Client(server.url).json('GET', '/api/auth/session', undefined, { cookie });
    expectError(reply, 401, 'auth/unauthenticated');
  }
}

describe('change e-mail', () => {
  it('answers 204, ends every session of the user, and moves the log-in to the new address', async () => {
    const { user, first, cookies, item } = await twoDevices();
    const newEmail = randomEmail();
    const reply = await first.json('PUT', '/api/account/email', { email: newEmail.toUpperCase() });
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(first.sessionCookies).toEqual([]);
    await expectCookiesRefused(cookies);
    expect((await server.rowsOf(user.uid, user.email)).session).toBe(0);

    expectError(await new Client(server.url).login(user.email, 'secret1'), 401, 'auth/invalid-credential');
    const again = new Client(server.url);
    const login = await again.login(newEmail, 'secret1');
    expect(login.status).toBe(200);
    // Stored in lower case, same uid, same cart; the new address is to be confirmed (docs/product.md §15).
    expect(login.body).toEqual({ user: { uid: user.uid, email: newEmail, emailConfirmed: false }, role: 'rider' });
    expect(await again.cart()).toEqual([item]);
  });

  it("refuses another user's e-mail (in any case) with 409 auth/email-already-in-use and changes nothing", async () => {
    const { user, first, second } = await twoDevices();
    const other = await new Client(server.url).signup();
    for (const email of [other.email, other.email.toUpperCase()]) {
      expectError(await first.json('PUT', '/api/account/email', { email }), 409, 'auth/email-already-in-use');
    }
    // Nothing changed: both sessions live, both accounts log in as before.
    expect((await first.session()).body).toEqual({ user, role: 'rider' });
    expect((await second.session()).body).toEqual({ user, role: 'rider' });
    expect((await new Client(server.url).login(user.email, 'secret1')).body).toEqual({ user, role: 'rider' });
    expect((await new Client(server.url).login(other.email, 'secret1')).body).toEqual({ user: other, role: 'rider' });
  });

  it('refuses an invalid e-mail with 400 auth/invalid-email and changes nothing', async () => {
    const { user, first } = await twoDevices();
    for (const email of ['not-an-email', 'a@b', 'two words@example.com', '', `${'x'.repeat(250)}@example.com`]) {
      expectError(await first.json('PUT', '/api/account/email', { email }), 400, 'auth/invalid-email');
    }
    expect((await first.session()).body).toEqual({ user, role: 'rider' });
  });

  it('allows keeping the same address', async () => {
    const { user, first, second } = await twoDevices();
    expect((await first.json('PUT', '/api/account/email', { email: user.email })).status).toBe(204);
    expectError(await second.session(), 401, 'auth/unauthenticated');
    expect((await new Client(server.url).login(user.email, 'secret1')).body).toEqual({ user, role: 'rider' });
  });
});

describe('change password', () => {
  it('answers 204, ends every session; the new password works and the old one does not', async () => {
    const { user, first, cookies, item } = await twoDevices();
    const reply = await first.json('PUT', '/api/account/password', { password: 'new-pass' });
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    await expectCookiesRefused(cookies);
    expect((await server.rowsOf(user.uid, user.email)).session).toBe(0);

    expectError(await new Client(server.url).login(user.email, 'secret1'), 401, 'auth/invalid-credential');
    const again = new Client(server.url);
    expect((await again.login(user.email, 'new-pass')).body).toEqual({ user, role: 'rider' });
    expect(await again.cart()).toEqual([item]);
  });

  it("refuses 'short' and a 17-character password with 400 auth/weak-password and changes nothing", async () => {
    const { user, first } = await twoDevices();
    for (const password of ['short', 'x'.repeat(17), '']) {
      expectError(await first.json('PUT', '/api/account/password', { password }), 400, 'auth/weak-password');
    }
    expect((await first.session()).body).toEqual({ user, role: 'rider' });
    expect((await new Client(server.url).login(user.email, 'secret1')).status).toBe(200);
  });
});

describe('passwords count characters, not UTF-16 units', () => {
  it('accepts 16 emoji on sign-up and on change, and logs in with them; refuses 5 and 17', async () => {
    const sixteen = '🐴'.repeat(16);
    const client = new Client(server.url);
    const user = await client.signup(randomEmail(), sixteen);
    expectError(
      await client.json('PUT', '/api/account/password', { password: '🐴'.repeat(17) }),
      400,
      'auth/weak-password',
    );
    expectError(
      await client.json('PUT', '/api/account/password', { password: '🐴'.repeat(5) }),
      400,
      'auth/weak-password',
    );
    const nine = '🐎'.repeat(9);
    expect((await client.json('PUT', '/api/account/password', { password: nine })).status).toBe(204);
    // Before the fix, the sign-in library refused this (18 UTF-16 units) at log-in: the user was locked out.
    expect((await new Client(server.url).login(user.email, nine)).body).toEqual({ user, role: 'rider' });
    expectError(await new Client(server.url).login(user.email, sixteen), 401, 'auth/invalid-credential');
  });
});

describe('delete account', () => {
  it('answers 204 and removes the user, sessions, cart and log-in counter; the e-mail can sign up again', async () => {
    const { user, first, second, cookies } = await twoDevices();
    await first.add('1');
    await first.add('8');
    // One failed log-in leaves a counter row for the address, which deletion must clear too.
    expectError(await new Client(server.url).login(user.email, 'wrong-1'), 401, 'auth/invalid-credential');
    // Another user's data must survive.
    const bystander = new Client(server.url);
    const other = await bystander.signup();
    const otherItem = await bystander.add('2');
    expect(await server.rowsOf(user.uid, user.email)).toEqual({
      user: 1,
      session: 2,
      account: 1,
      cart_item: 3,
      login_attempt: 1,
      passkey: 0,
    });

    const stream = await EventStream.open(second);
    await stream.next('snapshot');

    const reply = await first.json('DELETE', '/api/account');
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(first.cookies.size).toBe(0);

    expect(await server.rowsOf(user.uid, user.email)).toEqual({
      user: 0,
      session: 0,
      account: 0,
      cart_item: 0,
      login_attempt: 0,
      passkey: 0,
    });
    await stream.next('signed-out');
    await stream.ended();
    await expectCookiesRefused(cookies);
    expectError(await new Client(server.url).login(user.email, 'secret1'), 401, 'auth/invalid-credential');

    expect(await bystander.cart()).toEqual([otherItem]);
    expect(await server.rowsOf(other.uid, other.email)).toMatchObject({
      user: 1,
      session: 1,
      account: 1,
      cart_item: 1,
    });

    const reborn = new Client(server.url);
    const newUser = await reborn.signup(user.email, 'another1');
    expect(newUser.email).toBe(user.email);
    expect(newUser.uid).not.toBe(user.uid);
    expect(await reborn.cart()).toEqual([]);
  });

  it('answers 401 auth/unauthenticated without a session', async () => {
    expectError(await new Client(server.url).json('DELETE', '/api/account'), 401, 'auth/unauthenticated');
  });
});

describe('recent-login rule', () => {
  it('refuses e-mail, password and deletion with 403 auth/requires-recent-login after 6 minutes, changing nothing', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    const item = await client.add('3');
    await server.ageSessions(user.uid, 6);

    const newEmail = randomEmail();
    expectError(await client.json('PUT', '/api/account/email', { email: newEmail }), 403, 'auth/requires-recent-login');
    expectError(
      await client.json('PUT', '/api/account/password', { password: 'new-pass' }),
      403,
      'auth/requires-recent-login',
    );
    expectError(await client.json('DELETE', '/api/account'), 403, 'auth/requires-recent-login');

    // Nothing changed, and the session itself still works for everything else.
    expect((await client.session()).body).toEqual({ user, role: 'rider' });
    expect(await client.cart()).toEqual([item]);
    expect(await server.rowsOf(user.uid, user.email)).toMatchObject({ user: 1, session: 1, account: 1, cart_item: 1 });
    expectError(await new Client(server.url).login(newEmail, 'secret1'), 401, 'auth/invalid-credential');
    expectError(await new Client(server.url).login(user.email, 'new-pass'), 401, 'auth/invalid-credential');

    // A fresh log-in makes them work again.
    const fresh = new Client(server.url);
    expect((await fresh.login(user.email, 'secret1')).status).toBe(200);
    expect((await fresh.json('PUT', '/api/account/password', { password: 'new-pass' })).status).toBe(204);
    expect((await fresh.login(user.email, 'new-pass')).status).toBe(200);
    expect((await fresh.json('PUT', '/api/account/email', { email: newEmail })).status).toBe(204);
    expect((await fresh.login(newEmail, 'new-pass')).status).toBe(200);
    expect((await fresh.json('DELETE', '/api/account')).status).toBe(204);
    expect((await server.rowsOf(user.uid, newEmail)).user).toBe(0);
  });

  it('still allows them at 4 minutes', async () => {
    const client = new Client(server.url);
    const user = await client.signup();
    await server.ageSessions(user.uid, 4);
    expect((await client.json('PUT', '/api/account/password', { password: 'new-pass' })).status).toBe(204);

    const second = new Client(server.url);
    await second.login(user.email, 'new-pass');
    await server.ageSessions(user.uid, 4);
    const newEmail = randomEmail();
    expect((await second.json('PUT', '/api/account/email', { email: newEmail })).status).toBe(204);

    const third = new Client(server.url);
    await third.login(newEmail, 'new-pass');
    await server.ageSessions(user.uid, 4);
    expect((await third.json('DELETE', '/api/account')).status).toBe(204);
    expect((await server.rowsOf(user.uid, newEmail)).user).toBe(0);
  });

  it('judges each session by its own age: a fresh session works while an old one of the same user is refused', async () => {
    const old = new Client(server.url);
    const user = await old.signup();
    await server.ageSessions(user.uid, 6);
    const fresh = new Client(server.url);
    await fresh.login(user.email, 'secret1');
    expectError(
      await old.json('PUT', '/api/account/password', { password: 'new-pass' }),
      403,
      'auth/requires-recent-login',
    );
    expect((await fresh.json('PUT', '/api/account/password', { password: 'new-pass' })).status).toBe(204);
  });
});
