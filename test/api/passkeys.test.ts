import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox } from '../../scripts/mailbox';
import { address, Client, confirmationToken, confirmedRider, type Reply, randomEmail } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';
import { type Ceremony, SoftAuthenticator } from '../support/webauthn';

/** The shop's PUBLIC_URL: a passkey is bound to its host name, and answers only its origin. */
const origin = 'http://localhost:4173';
const rpId = 'localhost';
const challengeCookie = 'piaffe.better-auth-passkey';
const sessionCookie = 'piaffe.session_token';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: origin });
});
afterAll(() => server.stop());

/** A rider whose address is confirmed: only such an account adds passkeys. */
const rider = () => confirmedRider(server.url);

/** A challenge from `path`, as the ceremony the authenticator answers (the shop's origin unless `changes` says). */
async function ceremony(client: Client, path: string, changes: Partial<Ceremony> = {}): Promise<Ceremony> {
  const options = await client.json('POST', path);
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return { challenge: options.body.challenge, origin, rpId, ...changes };
}

/** Adds the authenticator's passkey to the rider's account: the options, then its answer. */
async function addPasskey(
  client: Client,
  authenticator = new SoftAuthenticator(),
  name = 'Phone',
  changes: Partial<Ceremony> = {},
): Promise<Reply> {
  const asked = await ceremony(client, '/api/account/passkeys/options', changes);
  return client.json('POST', '/api/account/passkeys', { name, response: authenticator.register(asked) });
}

/** Logs `client` in with the authenticator's passkey: the options, then its signature. */
async function logInWith(client: Client, authenticator: SoftAuthenticator, changes: Partial<Ceremony> = {}) {
  const asked = await ceremony(client, '/api/auth/login/passkey/options', changes);
  return client.json('POST', '/api/auth/login/passkey', { response: authenticator.signIn(asked) });
}

async function listed(client: Client): Promise<string[]> {
  const reply = await client.json('GET', '/api/account/passkeys');
  expect(reply.status).toBe(200);
  return reply.body.passkeys.map((passkey: { name: string }) => passkey.name);
}

describe('adding a passkey', () => {
  it('adds a named passkey after a recent log-in, lists it, and logs in with it in another browser', async () => {
    const client = await rider();
    const options = await client.json('POST', '/api/account/passkeys/options');
    expect(options.body).toMatchObject({ rp: { id: 'localhost', name: 'Piaffe' }, user: { name: client.user?.email } });
    expect(options.headers.getSetCookie().find((line) => line.startsWith(`${challengeCookie}=`))).toMatch(/HttpOnly/i);

    const authenticator = new SoftAuthenticator();
    const added = await addPasskey(client, authenticator, '  Work laptop  ');
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({
      passkey: { id: expect.any(String), name: 'Work laptop', createdAt: expect.any(String) },
    });
    expect((await client.json('GET', '/api/account/passkeys')).body).toEqual({ passkeys: [added.body.passkey] });
    // The browser is told not to make a second passkey on the same authenticator.
    const again = await client.json('POST', '/api/account/passkeys/options');
    expect(again.body.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);

    const elsewhere = new Client(server.url);
    const login = await logInWith(elsewhere, authenticator);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body).toEqual({ user: client.user, role: 'rider' });
    expect(elsewhere.cookies.has(sessionCookie)).toBe(true);
    expect((await elsewhere.session()).body.user).toEqual(client.user);
    expect(await server.rowsOf(client.user?.uid ?? '', client.user?.email ?? '')).toMatchObject({ session: 2 });
  });

  it('counts a passkey log-in as a recent log-in', async () => {
    const client = await rider();
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(client, authenticator)).status).toBe(201);
    await server.ageSessions(client.user?.uid ?? '', 6);
    expectError(await client.json('POST', '/api/account/passkeys/options'), 403, 'auth/requires-recent-login');

    expect((await logInWith(client, authenticator)).status).toBe(200);
    expect((await addPasskey(client, new SoftAuthenticator(), 'Tablet')).status).toBe(201);
    expect((await client.json('DELETE', '/api/account')).status).toBe(204);
  });

  it('refuses it without a session (401) and after a log-in older than 5 minutes (403), and adds nothing', async () => {
    const stranger = new Client(server.url);
    expectError(await stranger.json('POST', '/api/account/passkeys/options'), 401, 'auth/unauthenticated');
    const response = new SoftAuthenticator().register({ challenge: 'AAAA', origin, rpId });
    expectError(
      await stranger.json('POST', '/api/account/passkeys', { name: 'Phone', response }),
      401,
      'auth/unauthenticated',
    );
    expectError(await stranger.json('GET', '/api/account/passkeys'), 401, 'auth/unauthenticated');

    // The options asked for while the log-in was recent do not outlive it.
    const client = await rider();
    const asked = await ceremony(client, '/api/account/passkeys/options');
    await server.ageSessions(client.user?.uid ?? '', 6);
    expectError(await client.json('POST', '/api/account/passkeys/options'), 403, 'auth/requires-recent-login');
    const late = { name: 'Phone', response: new SoftAuthenticator().register(asked) };
    expectError(await client.json('POST', '/api/account/passkeys', late), 403, 'auth/requires-recent-login');
    expect(await listed(client)).toEqual([]);
  });

  it('refuses it before the address is confirmed (403 passkey/email-not-confirmed), and adds it once it is', async () => {
    const client = new Client(server.url);
    await client.signup();
    expectError(await client.json('POST', '/api/account/passkeys/options'), 403, 'passkey/email-not-confirmed');
    const response = new SoftAuthenticator().register({ challenge: 'AAAA', origin, rpId });
    const reply = await client.json('POST', '/api/account/passkeys', { name: 'Phone', response });
    expectError(reply, 403, 'passkey/email-not-confirmed');
    expect(await listed(client)).toEqual([]);

    await client.confirmEmail();
    expect((await addPasskey(client)).status).toBe(201);
    expect(await listed(client)).toEqual(['Phone']);
  });

  it('takes a name of 1 to 50 characters, trimmed', async () => {
    const client = await rider();
    for (const name of ['', '   ', 'x'.repeat(51), 42]) {
      const response = new SoftAuthenticator().register({ challenge: 'AAAA', origin, rpId });
      const reply = await client.json('POST', '/api/account/passkeys', { name, response });
      expectError(reply, 400, 'passkey/invalid-name');
    }
    expect((await addPasskey(client, new SoftAuthenticator(), ` ${'x'.repeat(50)} `)).status).toBe(201);
    expect(await listed(client)).toEqual(['x'.repeat(50)]);
  });

  it('refuses a forged or replayed registration with 400, never a 5xx, and stores nothing', async () => {
    const client = await rider();
    const authenticator = new SoftAuthenticator();
    const send = (response: unknown) => client.json('POST', '/api/account/passkeys', { name: 'Phone', response });

    // Not a WebAuthn answer at all.
    await ceremony(client, '/api/account/passkeys/options');
    for (const garbage of ['garbage', {}, { ...authenticator.register({ challenge: 'AAAA', origin, rpId }), id: '' }]) {
      expectError(await send(garbage), 400, 'passkey/invalid-response');
    }
    // Well formed, but signed for another challenge, another origin or another site.
    const other = await ceremony(client, '/api/account/passkeys/options');
    expectError(await send(authenticator.register({ ...other, challenge: 'AAAA' })), 400, 'passkey/invalid-response');
    expectError(
      await addPasskey(client, authenticator, 'Phone', { origin: 'https://evil.example' }),
      400,
      'passkey/invalid-response',
    );
    expectError(
      await addPasskey(client, authenticator, 'Phone', { rpId: 'evil.example' }),
      400,
      'passkey/invalid-response',
    );
    // Without asking for options, or answering the same options twice: the challenge is spent.
    expectError(await send(authenticator.register({ ...other })), 400, 'passkey/challenge-expired');
    const fresh = await ceremony(client, '/api/account/passkeys/options');
    expect((await send(authenticator.register(fresh))).status).toBe(201);
    expectError(await send(authenticator.register(fresh)), 400, 'passkey/challenge-expired');
    expect(await listed(client)).toEqual(['Phone']);
  });

  it('refuses a passkey already registered, to this account or another', async () => {
    const authenticator = new SoftAuthenticator();
    const first = await rider();
    expect((await addPasskey(first, authenticator)).status).toBe(201);
    const second = await rider();
    expectError(await addPasskey(second, authenticator), 400, 'passkey/invalid-response');
    expect(await listed(second)).toEqual([]);
    expect((await logInWith(new Client(server.url), authenticator)).body.user).toEqual(first.user);
  });
});

describe('logging in with a passkey', () => {
  it('refuses a forged or replayed answer with a 4xx, never a 5xx, and makes no session', async () => {
    const client = await rider();
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(client, authenticator)).status).toBe(201);
    const browser = new Client(server.url);
    const send = (response: unknown) => browser.json('POST', '/api/auth/login/passkey', { response });

    await ceremony(browser, '/api/auth/login/passkey/options');
    for (const garbage of ['garbage', { id: authenticator.id }, []]) {
      expectError(await send(garbage), 400, 'passkey/invalid-response');
    }
    // Signed for another challenge, another origin, another site, or by another key under the passkey's id.
    const asked = await ceremony(browser, '/api/auth/login/passkey/options');
    expectError(await send(authenticator.signIn({ ...asked, challenge: 'AAAA' })), 400, 'passkey/invalid-response');
    for (const changes of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      expectError(await logInWith(browser, authenticator, changes), 400, 'passkey/invalid-response');
    }
    const impostor = Object.assign(new SoftAuthenticator(), { credentialId: authenticator.credentialId });
    expectError(await logInWith(browser, impostor), 400, 'passkey/invalid-response');
    // A passkey the shop does not know.
    expectError(await logInWith(browser, new SoftAuthenticator()), 401, 'passkey/unknown');
    // No challenge asked for, or a good answer sent twice: the second finds its challenge spent; and sent again
    // after new options, it signed the old challenge.
    expectError(await send(authenticator.signIn(asked)), 400, 'passkey/challenge-expired');
    const fresh = await ceremony(browser, '/api/auth/login/passkey/options');
    const good = authenticator.signIn(fresh);
    const thief = new Client(server.url);
    thief.cookies = new Map(browser.cookies);
    expect(browser.cookies.has(sessionCookie)).toBe(false);
    expect((await send(good)).status).toBe(200);
    expectError(
      await thief.json('POST', '/api/auth/login/passkey', { response: good }),
      400,
      'passkey/challenge-expired',
    );
    await ceremony(thief, '/api/auth/login/passkey/options');
    expectError(
      await thief.json('POST', '/api/auth/login/passkey', { response: good }),
      400,
      'passkey/invalid-response',
    );
    expect(thief.cookies.has(sessionCookie)).toBe(false);
  });

  it('refuses a challenge made for adding a passkey', async () => {
    const client = await rider();
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(client, authenticator)).status).toBe(201);
    const asked = await ceremony(client, '/api/account/passkeys/options');
    const reply = await client.json('POST', '/api/auth/login/passkey', { response: authenticator.signIn(asked) });
    expectError(reply, 400, 'passkey/challenge-expired');
  });
});

describe('removing a passkey', () => {
  it("removes the rider's own passkey, which then logs nobody in; another's is not found", async () => {
    const owner = await rider();
    const authenticator = new SoftAuthenticator();
    const { passkey } = (await addPasskey(owner, authenticator)).body;

    const other = await rider();
    expectError(await other.json('DELETE', `/api/account/passkeys/${passkey.id}`), 404, 'passkey/not-found');
    for (const id of ['no-such-passkey', '%00', 'x%00y']) {
      expectError(await other.json('DELETE', `/api/account/passkeys/${id}`), 404, 'passkey/not-found');
    }
    expectError(
      await new Client(server.url).json('DELETE', `/api/account/passkeys/${passkey.id}`),
      401,
      'auth/unauthenticated',
    );
    expect(await listed(owner)).toEqual(['Phone']);

    const removed = await owner.json('DELETE', `/api/account/passkeys/${passkey.id}`);
    expect(removed.status).toBe(204);
    expect(await listed(owner)).toEqual([]);
    expectError(await logInWith(new Client(server.url), authenticator), 401, 'passkey/unknown');
  });

  it('removes every passkey with the account', async () => {
    const client = await rider();
    const user = client.user ?? { uid: '', email: '' };
    expect((await addPasskey(client)).status).toBe(201);
    expect((await addPasskey(client, new SoftAuthenticator(), 'Tablet')).status).toBe(201);
    expect((await server.rowsOf(user.uid, user.email)).passkey).toBe(2);
    expect((await client.json('DELETE', '/api/account')).status).toBe(204);
    expect((await server.rowsOf(user.uid, user.email)).passkey).toBe(0);
  });
});

/** The token of the newest password-reset link e-mailed to `email` after the `after`-th mail, once asked for. */
async function resetToken(email: string): Promise<string> {
  const mailbox = server.mailbox as Mailbox;
  const after = mailbox.mails.length;
  expect((await new Client(server.url).json('POST', '/api/auth/password-reset', { email })).status).toBe(204);
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.parsed.subject === 'Reset your password', {
    after,
  });
  expect(mail.parsed.text).toContain('removes every passkey of the account');
  return /#token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1] ?? '';
}

async function resetPassword(email: string, password: string): Promise<void> {
  const token = await resetToken(email);
  const reply = await new Client(server.url).json('POST', '/api/auth/password-reset/confirm', { token, password });
  expect(reply.status).toBe(204);
}

describe('a password reset by e-mail', () => {
  it('removes every passkey of the account, those added after the link was asked for too, which then log nobody in', async () => {
    const client = await rider();
    const user = client.user ?? { uid: '', email: '' };
    const phone = new SoftAuthenticator();
    expect((await addPasskey(client, phone)).status).toBe(201);
    const token = await resetToken(user.email);
    const tablet = new SoftAuthenticator();
    expect((await addPasskey(client, tablet, 'Tablet')).status).toBe(201);

    const reply = await new Client(server.url).json('POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'fresh-42',
    });
    expect(reply.status).toBe(204);
    expect(await server.rowsOf(user.uid, user.email)).toMatchObject({ passkey: 0, session: 0 });
    for (const authenticator of [phone, tablet]) {
      expectError(await logInWith(new Client(server.url), authenticator), 401, 'passkey/unknown');
    }
    const back = new Client(server.url);
    expect((await back.login(user.email, 'fresh-42')).status).toBe(200);
    expect(await listed(back)).toEqual([]);
  });
});

describe('taking over an account before its owner signs up (docs/SECURITY.md)', () => {
  /** What the attacker keeps: a session, a passkey, a password. Nothing, each step shows. */
  async function expectLeftWithNothing(attacker: Client, authenticator: SoftAuthenticator, password: string) {
    const email = attacker.user?.email ?? '';
    expectError(await attacker.session(), 401, 'auth/unauthenticated');
    expectError(await attacker.json('GET', '/api/account/passkeys'), 401, 'auth/unauthenticated');
    expectError(await logInWith(new Client(server.url), authenticator), 401, 'passkey/unknown');
    expectError(await new Client(server.url).login(email, password), 401, 'auth/invalid-credential');
  }

  /** The victim's own sign-up finds the address taken; a reset through the victim's mailbox lets the victim in. */
  async function victimTakesTheAccountBack(email: string): Promise<Client> {
    const victim = new Client(server.url);
    expectError(
      await victim.json('POST', '/api/auth/signup', { email, password: 'victim-7' }),
      409,
      'auth/email-already-in-use',
    );
    await resetPassword(email, 'victim-7');
    expect((await victim.login(email, 'victim-7')).status).toBe(200);
    return victim;
  }

  /** The victim orders, with a name and an address of the victim's own; the order's number. */
  async function victimOrders(victim: Client): Promise<string> {
    await victim.add('2');
    const reply = await victim.placeOrder({ address: { ...address, fullName: 'Victoria Victim' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return String(reply.body.order.number);
  }

  it("the attacker signs up with the victim's address: no passkey before it is confirmed, and the reset ends the rest", async () => {
    const email = randomEmail();
    const attacker = new Client(server.url);
    await attacker.signup(email, 'attacker-1');
    const authenticator = new SoftAuthenticator();
    // The step that fails: the sign-up is a recent log-in, but the address is not the attacker's to prove.
    expectError(await attacker.json('POST', '/api/account/passkeys/options'), 403, 'passkey/email-not-confirmed');
    const forced = authenticator.register({ challenge: 'AAAA', origin, rpId });
    const added = await attacker.json('POST', '/api/account/passkeys', { name: 'Mine', response: forced });
    expectError(added, 403, 'passkey/email-not-confirmed');

    const victim = await victimTakesTheAccountBack(email);
    // The link the attacker's sign-up e-mailed, opened by the victim in the victim's browser.
    const confirmed = await victim.json('POST', '/api/auth/email-confirmation', {
      token: await confirmationToken(email),
    });
    expect(confirmed.status).toBe(200);
    const number = await victimOrders(victim);

    await expectLeftWithNothing(attacker, authenticator, 'attacker-1');
    expect((await server.rowsOf(victim.user?.uid ?? '', email)).passkey).toBe(0);
    expect((await victim.json('GET', `/api/orders/${number}`)).status).toBe(200);
  });

  it('the victim opens the link before the reset: the attacker logs in again and adds a passkey, and the reset removes it', async () => {
    const email = randomEmail();
    const attacker = new Client(server.url);
    await attacker.signup(email, 'attacker-1');
    // The victim finds the link in the mailbox and opens it: that browser is not logged in, so every session ends.
    expect(
      (
        await new Client(server.url).json('POST', '/api/auth/email-confirmation', {
          token: await confirmationToken(email),
        })
      ).status,
    ).toBe(200);
    expectError(await attacker.session(), 401, 'auth/unauthenticated');
    // The attacker still knows the password: a fresh log-in to a confirmed address may add a passkey.
    expect((await attacker.login(email, 'attacker-1')).body.user.emailConfirmed).toBe(true);
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(attacker, authenticator)).status).toBe(201);

    const victim = await victimTakesTheAccountBack(email);
    const number = await victimOrders(victim);

    await expectLeftWithNothing(attacker, authenticator, 'attacker-1');
    expect((await server.rowsOf(victim.user?.uid ?? '', email)).passkey).toBe(0);
    expect((await victim.json('GET', `/api/orders/${number}`)).body.order.address.fullName).toBe('Victoria Victim');
  });
});
