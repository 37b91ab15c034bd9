import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredChallenges } from '../../src/server/auth/passkey-challenges';
import { throttlePolicy } from '../../src/server/auth/throttle';
import { Client, type Reply, randomEmail } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

// The server is not behind a proxy, so the client address is the socket's. Every 127.x.y.z is the
// loopback on Linux: each test sends from its own source address, so the tests do not lock each other out.
let lastAddress = 1;
const newAddress = () => `127.0.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 2}`;

/** POST /api/auth/login sent from `address`, optionally with extra headers. */
function login(email: string, password: string, address: string, headers: Record<string, string> = {}) {
  const { port } = new URL(server.url);
  const body = JSON.stringify({ email, password });
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: address,
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : [value ?? '']) replyHeaders.append(name, v);
          }
          resolve({ status: res.statusCode ?? 0, headers: replyHeaders, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function expectTooMany(reply: Reply) {
  expectError(reply, 429, 'auth/too-many-requests');
  const retryAfter = reply.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
  // The window started with this test's first failure, moments ago: the wait is most of the window.
  expect(Number(retryAfter)).toBeLessThanOrEqual(throttlePolicy.windowMs / 1000);
  expect(Number(retryAfter)).toBeGreaterThan(throttlePolicy.windowMs / 1000 - 120);
  expect(reply.headers.getSetCookie()).toEqual([]);
}

/** Runs `count` tasks, `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

describe('per e-mail', () => {
  it('after 5 failures, the 6th attempt is 429 with Retry-After even with the right password', async () => {
    expect(throttlePolicy.maxFailuresPerEmail).toBe(5);
    const user = await new Client(server.url).signup();
    const address = newAddress();
    for (let i = 1; i <= 5; i++) {
      // The case of the address does not give an attacker a fresh count.
      const email = i % 2 ? user.email : user.email.toUpperCase();
      expectError(await login(email, `wrong-${i}`, address), 401, 'auth/invalid-credential');
    }
    expectTooMany(await login(user.email, 'secret1', address));
    // The count belongs to the e-mail: another address is refused too.
    expectTooMany(await login(user.email, 'secret1', newAddress()));
    // A different e-mail from the same address still works.
    const other = await new Client(server.url).signup();
    expect((await login(other.email, 'secret1', address)).status).toBe(200);
    // The user's existing session is not touched by the lock.
    expect((await server.rowsOf(user.uid, user.email)).session).toBe(1);
  });

  it('treats an unknown e-mail the same way, so the lock does not tell which addresses have accounts', async () => {
    const email = randomEmail();
    const address = newAddress();
    for (let i = 0; i < 5; i++) {
      expectError(await login(email, 'secret1', address), 401, 'auth/invalid-credential');
    }
    expectTooMany(await login(email, 'secret1', address));
  });

  it("a successful log-in before the limit resets the e-mail's count", async () => {
    const user = await new Client(server.url).signup();
    const address = newAddress();
    for (let i = 0; i < 4; i++) {
      expectError(await login(user.email, 'wrong-1', address), 401, 'auth/invalid-credential');
    }
    expect((await login(user.email, 'secret1', address)).status).toBe(200);
    expect((await server.rowsOf(user.uid, user.email)).login_attempt).toBe(0);
    // Without the reset, the 5th of these would reach the limit and the log-in after it would be refused.
    for (let i = 0; i < 4; i++) {
      expectError(await login(user.email, 'wrong-1', address), 401, 'auth/invalid-credential');
    }
    expect((await login(user.email, 'secret1', address)).status).toBe(200);
  });

  it('does not count refusals of the format (400) as failures', async () => {
    const user = await new Client(server.url).signup();
    const address = newAddress();
    for (let i = 0; i < 6; i++) {
      expectError(await login(user.email, 'short', address), 400, 'auth/invalid-password');
    }
    expect((await server.rowsOf(user.uid, user.email)).login_attempt).toBe(0);
    expect((await login(user.email, 'secret1', address)).status).toBe(200);
  });
});

describe('per client address', () => {
  it('after 50 failures across different e-mails from one address, a new e-mail from there is 429 too', async () => {
    expect(throttlePolicy.maxFailuresPerAddress).toBe(50);
    const user = await new Client(server.url).signup();
    const address = newAddress();
    // One failure per e-mail, so no e-mail comes near its own limit. Each one hashes a password (the
    // server does so for unknown e-mails too), which makes this the slow test of the file. A forged
    // X-Forwarded-For, different on every request, must not help: the server is not behind a proxy.
    await pool(50, 4, async (i) => {
      const forged = { 'x-forwarded-for': `192.0.2.${i + 1}` };
      expectError(await login(randomEmail(), 'wrong-1', address, forged), 401, 'auth/invalid-credential');
    });
    expectTooMany(await login(user.email, 'secret1', address));
    expectTooMany(await login(randomEmail(), 'secret1', address, { 'x-forwarded-for': '192.0.2.200' }));
    // The same user from another address is fine: the lock is on the address, and the user's count is clean.
    expect((await login(user.email, 'secret1', newAddress())).status).toBe(200);
    // About 6 s when run alone on this two-core machine; the margin is for one busy with other work, as these
    // are 50 scrypt hashes of 32 MiB each.
  }, 60_000);
});

describe('counting is atomic', () => {
  it('20 parallel wrong guesses for one e-mail: exactly 5 reach the password check (401), 15 are 429', async () => {
    const user = await new Client(server.url).signup();
    const address = newAddress();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.email, `wrong-${i}`, address)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(throttlePolicy.maxFailuresPerEmail);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - throttlePolicy.maxFailuresPerEmail);
    for (const reply of replies) {
      if (reply.status === 429) expectTooMany(reply);
      else expectError(reply, 401, 'auth/invalid-credential');
    }
    // Locked now even for the right password, from anywhere.
    expectTooMany(await login(user.email, 'secret1', newAddress()));
  });
});

/**
 * Brings `address` to `count` counted attempts cheaply: five wrong passwords lock a throwaway e-mail, and
 * every further attempt on it is refused before any password is checked, yet still counts for the address.
 */
async function spendAddress(address: string, count: number, headers: () => Record<string, string> = () => ({})) {
  const email = randomEmail();
  for (let i = 0; i < count; i++) {
    const reply = await login(email, 'wrong-1', address, headers());
    expect(reply.status).toBe(i < throttlePolicy.maxFailuresPerEmail ? 401 : 429);
  }
}

describe('per client address, with successes', () => {
  it('successful log-ins give their attempt back, so an office full of users never locks itself out', async () => {
    const address = newAddress();
    const limit = throttlePolicy.maxFailuresPerAddress;
    await spendAddress(address, limit - 1);
    const users = await Promise.all(Array.from({ length: 5 }, () => new Client(server.url).signup()));
    // Each of these counts while it runs and is given back once it succeeds.
    for (const user of users) expect((await login(user.email, 'secret1', address)).status).toBe(200);
    expectError(await login(randomEmail(), 'secret1', address), 401, 'auth/invalid-credential');
    expectTooMany(await login(randomEmail(), 'secret1', address));
  });
});

describe('the device cookie', () => {
  const deviceCookie = 'piaffe.device';

  /** A user who signed up in a browser, which now holds a device cookie for them. */
  async function knownUser() {
    const client = new Client(server.url);
    const user = await client.signup();
    const device = client.cookies.get(deviceCookie) ?? '';
    expect(device).not.toBe('');
    return { user, device, cookie: { cookie: `${deviceCookie}=${device}` } };
  }

  it('is set on sign-up and log-in: HttpOnly, SameSite=Strict, only for the log-in route, long-lived, no e-mail in it', async () => {
    const client = new Client(server.url);
    const email = randomEmail();
    const signup = await client.json('POST', '/api/auth/signup', { email, password: 'secret1' });
    const login = await new Client(server.url).login(email, 'secret1');
    for (const reply of [signup, login]) {
      const line = reply.headers.getSetCookie().find((l) => l.startsWith(`${deviceCookie}=`)) ?? '';
      expect(line).toMatch(/;\s*HttpOnly(;|$)/i);
      expect(line).toMatch(/;\s*SameSite=Strict(;|$)/i);
      expect(line).toMatch(/;\s*Path=\/api\/auth\/login(;|$)/i);
      expect(line).not.toMatch(/;\s*Secure(;|$)/i);
      const maxAge = Number(/Max-Age=(\d+)/i.exec(line)?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(90 * 24 * 60 * 60);
      const value = decodeURIComponent(line.split(';')[0]?.split('=')[1] ?? '');
      const local = email.split('@')[0] ?? '';
      for (const form of [
        email,
        local,
        Buffer.from(email).toString('base64'),
        Buffer.from(email).toString('base64url'),
      ]) {
        expect(value).not.toContain(form);
      }
    }
  });

  it('an attacker exhausts the address: a known user behind it still logs in, a new e-mail and forged cookies do not', async () => {
    const known = await knownUser();
    const other = await knownUser();
    const newcomer = await new Client(server.url).signup();
    const address = newAddress();
    await spendAddress(address, throttlePolicy.maxFailuresPerAddress);

    expectTooMany(await login(randomEmail(), 'secret1', address));
    expectTooMany(await login(newcomer.email, 'secret1', address));
    expectTooMany(await login(known.user.email, 'secret1', address));

    const ok = await login(known.user.email, 'secret1', address, known.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user: known.user, role: 'rider' });
    // The same device id is kept, and the cookie renewed.
    const renewed = ok.headers.getSetCookie().find((l) => l.startsWith(`${deviceCookie}=`)) ?? '';
    const renewedValue = renewed.split(';')[0]?.slice(deviceCookie.length + 1) ?? '';
    expect(renewedValue.split('.')[0]).toBe(known.device.split('.')[0]);

    const [id = '', uid = '', epoch = '', mac = ''] = known.device.split('.');
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = [
      `${id}.${uid}.${epoch}.${flipped}`, // a tampered signature
      `${id}.${uid}.${epoch}`, // no signature
      `${'A'.repeat(22)}.${uid}.${epoch}.${mac}`, // another id with this signature
      `${id}.${other.user.uid}.${epoch}.${mac}`, // another account with this signature
      `${id}.${uid}.${Number(epoch) + 1}.${mac}`, // a later epoch with this signature
      `${randomId()}.${uid}.0.${'x'.repeat(43)}`, // made up
      other.device, // a real cookie, but for another account
      `${known.device}; ${deviceCookie}=${known.device}`.slice(0, 10), // garbage
    ];
    for (const value of forged) {
      expectTooMany(await login(known.user.email, 'secret1', address, { cookie: `${deviceCookie}=${value}` }));
    }
    // A real device cookie does not help another account either.
    expectTooMany(await login(newcomer.email, 'secret1', address, known.cookie));
  });

  it("an attacker who locks the user's e-mail does not lock out the user's known browser", async () => {
    const known = await knownUser();
    const attacker = newAddress();
    for (let i = 0; i < throttlePolicy.maxFailuresPerEmail; i++) {
      expectError(await login(known.user.email, `wrong-${i}`, attacker), 401, 'auth/invalid-credential');
    }
    expectTooMany(await login(known.user.email, 'secret1', newAddress()));
    expect((await login(known.user.email, 'secret1', newAddress(), known.cookie)).status).toBe(200);
  });

  it('log-ins with a device cookie have their own limit, and a success resets it', async () => {
    const known = await knownUser();
    const address = newAddress();
    for (let i = 0; i < throttlePolicy.maxFailuresPerDevice - 1; i++) {
      expectError(await login(known.user.email, 'wrong-1', address, known.cookie), 401, 'auth/invalid-credential');
    }
    expect((await login(known.user.email, 'secret1', address, known.cookie)).status).toBe(200);
    for (let i = 0; i < throttlePolicy.maxFailuresPerDevice; i++) {
      expectError(await login(known.user.email, 'wrong-1', address, known.cookie), 401, 'auth/invalid-credential');
    }
    expectTooMany(await login(known.user.email, 'secret1', address, known.cookie));
    // Those failures were the device's, not the e-mail's: the user logs in from another browser.
    expect((await login(known.user.email, 'secret1', newAddress())).status).toBe(200);
  }, 30_000);
});

describe('behind a proxy (TRUST_PROXY=1)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({ TRUST_PROXY: '1' });
  });
  afterAll(() => proxied.stop());

  /** Log-in through the "proxy": the socket is always 127.0.0.1, the client is the last X-Forwarded-For entry. */
  async function viaProxy(email: string, client: string) {
    return new Client(proxied.url).json(
      'POST',
      '/api/auth/login',
      { email, password: 'secret1' },
      { 'x-forwarded-for': `203.0.113.9, ${client}` },
    );
  }

  it('groups IPv6 clients by /64: an attacker cannot escape the limit by changing the interface id', async () => {
    const email = randomEmail();
    for (let i = 0; i < throttlePolicy.maxFailuresPerAddress; i++) {
      const reply = await viaProxy(email, `2001:db8:aa:bb:${i.toString(16)}::${(i * 7).toString(16)}`);
      expect(reply.status).toBe(i < throttlePolicy.maxFailuresPerEmail ? 401 : 429);
    }
    expectTooMany(await viaProxy(randomEmail(), '2001:db8:aa:bb:ffff:ffff:ffff:ffff'));
    expectTooMany(await viaProxy(randomEmail(), '2001:0DB8:00AA:00BB::1'));
    // The neighbouring /64 is someone else.
    expectError(await viaProxy(randomEmail(), '2001:db8:aa:bc::1'), 401, 'auth/invalid-credential');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    const email = randomEmail();
    for (let i = 0; i < throttlePolicy.maxFailuresPerAddress; i++) {
      const client = i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7';
      expect((await viaProxy(email, client)).status).toBe(i < throttlePolicy.maxFailuresPerEmail ? 401 : 429);
    }
    expectTooMany(await viaProxy(randomEmail(), '198.51.100.7'));
    expectTooMany(await viaProxy(randomEmail(), '::ffff:c633:6407'));
    expectError(await viaProxy(randomEmail(), '198.51.100.8'), 401, 'auth/invalid-credential');
  });
});

function randomId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');
}

describe('passkey log-in challenges', () => {
  const options = '/api/auth/login/passkey/options';
  const max = throttlePolicy.maxPasskeyChallengesPerAddress;
  const challenges = async () =>
    Number(
      (
        await server.db.kysely
          .selectFrom('verification')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(`answers ${max} per client address in 15 minutes, then 429 with Retry-After and no row written; another address still gets one`, async () => {
    const browser = new Client(server.url);
    const before = await challenges();
    for (let i = 0; i < max; i++) expect((await browser.json('POST', options)).status).toBe(200);
    expect(await challenges()).toBe(before + max);
    const refused = await browser.json('POST', options);
    expectError(refused, 429, 'auth/too-many-requests', /^Too many passkey log-ins from your network/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(throttlePolicy.windowMs / 1000);
    expect(await challenges()).toBe(before + max);
    expect((await new Client(server.url).json('POST', options)).status).toBe(200);
  });

  it("deletes the challenges whose 5 minutes are up (each server's housekeeping), and no other", async () => {
    const browser = new Client(server.url);
    for (let i = 0; i < 3; i++) expect((await browser.json('POST', options)).status).toBe(200);
    const kept = await challenges();
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(await deleteExpiredChallenges(server.db, Date.now())).toBe(0);
    expect(await challenges()).toBe(kept);
    expect(await deleteExpiredChallenges(server.db, Date.now() + 5 * 60_000 + 1000)).toBe(kept);
    expect(await challenges()).toBe(0);
  });
});
