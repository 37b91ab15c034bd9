import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
