import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox } from '../../scripts/mailbox';
import { throttlePolicy } from '../../src/server/auth/throttle';
import { Client, randomEmail, testMailbox } from '../support/client';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';
import { createDatabase } from '../support/test-database';

let mailbox: Mailbox;
let server: TestServer;
beforeAll(async () => {
  mailbox = await testMailbox();
  server = await startTestServer({ SMTP_URL: mailbox.url }, { captureLog: true });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

const ask = (client: Client, email: string) => client.json('POST', '/api/auth/password-reset', { email });
const check = (client: Client, token: string) => client.json('POST', '/api/auth/password-reset/check', { token });
const confirm = (client: Client, token: string, password = 'fresh-42') =>
  client.json('POST', '/api/auth/password-reset/confirm', { token, password });

/** Asks for a link for `email` and reads its token from the e-mail that arrives. */
async function linkFor(email: string): Promise<string> {
  const before = mailbox.mails.length;
  expect((await ask(new Client(server.url), email)).status).toBe(204);
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.parsed.subject === 'Reset your password', {
    after: before,
  });
  const link = /(http\S+\/reset-password#token=([A-Za-z0-9_-]+))/.exec(mail.parsed.text ?? '');
  expect(mail.parsed.html).toContain(`href="${link?.[1]}"`);
  return link?.[2] ?? '';
}

describe('password reset', () => {
  it('e-mails a one-hour, single-use link that sets a new password, ends every session and sends a notice', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await linkFor(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const anyone = new Client(server.url);
    expect((await check(anyone, token)).status).toBe(204);

    const reply = await confirm(anyone, token);
    expect(reply.status).toBe(204);
    expectError(await rider.session(), 401, 'auth/unauthenticated');
    expectError(await new Client(server.url).login(email, 'secret1'), 401, 'auth/invalid-credential');
    expect((await new Client(server.url).login(email, 'fresh-42')).status).toBe(200);
    const notice = await mailbox.waitFor(
      (m) => m.to.includes(email) && m.parsed.subject === 'Your password has been changed',
    );
    expect(notice.parsed.text).toContain(
      'every device that was logged in has been logged out, and every passkey of the account has been removed',
    );

    // Single use.
    expectError(await check(anyone, token), 410, 'auth/reset-link-used');
    expectError(await confirm(anyone, token, 'other-42'), 410, 'auth/reset-link-used');
    expect((await new Client(server.url).login(email, 'fresh-42')).status).toBe(200);
  });

  it('gives the same answer for an address without an account, and sends nothing', async () => {
    const email = randomEmail();
    const before = mailbox.mails.length;
    const reply = await ask(new Client(server.url), email);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    const known = new Client(server.url);
    const { email: knownEmail } = await known.signup();
    expect((await ask(new Client(server.url), knownEmail)).status).toBe(204);
    await mailbox.waitFor((m) => m.to.includes(knownEmail) && m.parsed.subject === 'Reset your password', {
      after: before,
    });
    expect(mailbox.mails.filter((m) => m.to.includes(email))).toEqual([]);
    const rows = await server.db.kysely.selectFrom('outbox').select('id').where('recipient', '=', email).execute();
    expect(rows).toEqual([]);
  });

  it('refuses an expired link with 410 auth/reset-link-expired and keeps the password', async () => {
    const rider = new Client(server.url);
    const { email, uid } = await rider.signup();
    const token = await linkFor(email);
    await server.db.kysely
      .updateTable('password_reset')
      .set({ expires_at: Date.now() - 1 })
      .where('uid', '=', uid)
      .execute();
    expectError(await check(rider, token), 410, 'auth/reset-link-expired');
    expectError(await confirm(rider, token), 410, 'auth/reset-link-expired');
    expect((await rider.session()).status).toBe(200);
    expect((await new Client(server.url).login(email, 'secret1')).status).toBe(200);
  });

  it.each([['x'], ['a'.repeat(43)], ['a'.repeat(42)], ['a'.repeat(44)], ['<script>'.padEnd(43, 'a')]])(
    'refuses the token %j with 400 auth/reset-link-invalid',
    async (token) => {
      expectError(await check(new Client(server.url), token), 400, 'auth/reset-link-invalid');
      expectError(await confirm(new Client(server.url), token), 400, 'auth/reset-link-invalid');
    },
  );

  it('spends every open link of the user once one of them is used', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const first = await linkFor(email);
    const second = await linkFor(email);
    expect((await confirm(rider, second)).status).toBe(204);
    expectError(await confirm(rider, first, 'again-42'), 410, 'auth/reset-link-used');
  });

  it.each([
    ['an e-mail change', (client: Client) => client.json('PUT', '/api/account/email', { email: randomEmail() })],
    ['a password change', (client: Client) => client.json('PUT', '/api/account/password', { password: 'other-42' })],
  ])('spends the open links on %s, so a link sent before cannot undo it', async (_, change) => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await linkFor(email);
    expect((await change(rider)).status).toBe(204);
    expectError(await check(rider, token), 410, 'auth/reset-link-used');
    expectError(await confirm(new Client(server.url), token), 410, 'auth/reset-link-used');
  });

  it('sets the password once when one link is used twice at once', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await linkFor(email);
    const replies = await Promise.all([confirm(rider, token, 'first-42'), confirm(rider, token, 'second-42')]);
    expect(replies.map((r) => r.status).sort()).toEqual([204, 410]);
    const won = replies[0]?.status === 204 ? 'first-42' : 'second-42';
    expect((await new Client(server.url).login(email, won)).status).toBe(200);
  });

  it('refuses a weak password with 400 auth/weak-password and leaves the link good', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await linkFor(email);
    expectError(await confirm(rider, token, '12345'), 400, 'auth/weak-password');
    expectError(await confirm(rider, token, 'x'.repeat(17)), 400, 'auth/weak-password');
    expect((await check(rider, token)).status).toBe(204);
  });

  it('never logs a token, and clears the link from the outbox once sent', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await linkFor(email);
    await confirm(rider, token);
    for (const line of server.logLines) expect(line).not.toContain(token);
    await expect
      .poll(async () =>
        server.db.kysely
          .selectFrom('outbox')
          .select(['state', 'text_body', 'html_body'])
          .where('recipient', '=', email)
          .where('kind', '=', 'password-reset')
          .executeTakeFirst(),
      )
      .toMatchObject({ state: 'sent', text_body: expect.not.stringContaining(token) });
    const stored = await server.db.kysely.selectFrom('password_reset').select('token_hash').execute();
    for (const row of stored) expect(row.token_hash).not.toBe(token);
  });
});

describe('the link at rest', () => {
  it('is never in the database in plain text, before or after it is sent, nor in the SQLite file or its WAL', async () => {
    // A shop of its own on a SQLite file, read byte by byte; the outbox holds the e-mail until SMTP is reachable.
    const database = await createDatabase();
    const shop = await startTestServer({ DATABASE_URL: database.url, SMTP_URL: mailbox.url });
    try {
      const rider = new Client(shop.url);
      const { email } = await rider.signup();
      const before = mailbox.mails.length;
      expect((await ask(new Client(shop.url), email)).status).toBe(204);
      const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.parsed.subject === 'Reset your password', {
        after: before,
      });
      const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1] ?? '';
      expect(token.length).toBeGreaterThan(20);
      const bodies = await database.query<{ text_body: string; html_body: string }>(
        "select text_body, html_body from outbox where kind = 'password-reset'",
      );
      expect(bodies).toHaveLength(1);
      for (const body of bodies) expect(JSON.stringify(body)).not.toContain(token);
      if (database.backend === 'sqlite') {
        const file = database.url.slice('file:'.length);
        for (const path of [file, `${file}-wal`]) {
          if (existsSync(path)) expect(readFileSync(path).includes(token), path).toBe(false);
        }
      }
      // The rider's link works all the same.
      expect((await check(rider, token)).status).toBe(204);
    } finally {
      await shop.stop();
      await database.drop();
    }
  });
});

describe('throttling', () => {
  it(`answers ${throttlePolicy.maxResetsPerEmail} requests for one e-mail, then 429 with Retry-After, account or not`, async () => {
    const known = new Client(server.url);
    const { email } = await known.signup();
    for (const target of [email, randomEmail()]) {
      for (let i = 0; i < throttlePolicy.maxResetsPerEmail; i++) {
        expect((await ask(new Client(server.url), target)).status).toBe(204);
      }
      const refused = await ask(new Client(server.url), target);
      expectError(refused, 429, 'auth/too-many-requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it(`answers ${throttlePolicy.maxResetsPerAddress} requests from one address, then 429`, async () => {
    const client = new Client(server.url);
    for (let i = 0; i < throttlePolicy.maxResetsPerAddress; i++) {
      expect((await ask(client, randomEmail())).status).toBe(204);
    }
    expectError(await ask(client, randomEmail()), 429, 'auth/too-many-requests');
  });

  it('refuses a malformed address with 400 auth/invalid-email', async () => {
    expectError(await ask(new Client(server.url), 'not-an-address'), 400, 'auth/invalid-email');
  });
});
