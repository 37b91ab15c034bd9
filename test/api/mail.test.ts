import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox, ReceivedMail } from '../../scripts/mailbox';
import { address, Client, randomEmail, testMailbox } from '../support/client';
import { outboxOf, startTestServer, type TestServer } from '../support/server';

/**
 * E-mail over real SMTP: the server sends to a mailbox the test starts on 127.0.0.1 (scripts/mailbox.ts), and the
 * test reads what arrived, parsed by mailparser.
 */
let mailbox: Mailbox;
let server: TestServer;
beforeAll(async () => {
  mailbox = await testMailbox();
  server = await startTestServer({ SMTP_URL: mailbox.url, MAIL_FROM: 'Piaffe Shop <orders@piaffe.test>' });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

const to = (email: string) => (mail: ReceivedMail) => mail.to.includes(email);
/** The confirmation of the order `number`, to `email`. */
const orderMail = (email: string, number: string) => (mail: ReceivedMail) =>
  to(email)(mail) && mail.parsed.subject === `Your order ${number}`;

/** A PUBLIC_URL that is not this machine's. */
const publicShop = 'https://shop.piaffe.test';

async function health(of: TestServer) {
  return (await new Client(of.url).json('GET', '/healthz')).body.mail;
}

/** How many e-mails of the server's outbox are in `state`. */
async function inState(of: TestServer, state: string): Promise<number> {
  const rows = await of.db.kysely.selectFrom('outbox').select('id').where('state', '=', state).execute();
  return rows.length;
}

describe('the e-mails', () => {
  it('sends the order confirmation with the order, the totals and how to pay, in text and HTML', async () => {
    const client = new Client(server.url);
    const { email } = await client.signupConfirmed();
    const order = await client.order('1', '8');
    const mail = await mailbox.waitFor(orderMail(email, order.number));
    const { parsed } = mail;
    expect(parsed.subject).toBe(`Your order ${order.number}`);
    expect(parsed.from?.value).toEqual([{ name: 'Piaffe Shop', address: 'orders@piaffe.test' }]);
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    for (const part of [parsed.text ?? '', parsed.html || '']) {
      expect(part).toContain(order.number);
      expect(part).toContain('Anky Bridle');
      expect(part).toContain('$647.48');
      expect(part).toContain('Wellington Community Bank');
    }
    expect(parsed.text).toContain(`/orders/${order.number}`);
    expect(parsed.text).toContain('Prices include any tax.');
    expect(parsed.html).toContain('<!doctype html>');
    // Marked sent just after the SMTP server took it.
    await expect.poll(() => inState(server, 'waiting')).toBe(0);
    expect(await health(server)).toEqual({ sending: true, overdue: 0, failed: 0 });
  });

  it('links to PUBLIC_URL', async () => {
    const local = await testMailbox();
    const shop = await startTestServer({ SMTP_URL: local.url, PUBLIC_URL: 'https://shop.piaffe.test' });
    try {
      const client = new Client(shop.url);
      const { email } = await client.signupConfirmed();
      const order = await client.order('3');
      const { parsed } = await local.waitFor(orderMail(email, order.number));
      expect(parsed.text).toContain(`https://shop.piaffe.test/orders/${order.number}`);
      expect(parsed.html).toContain(`href="https://shop.piaffe.test/orders/${order.number}"`);
      expect(parsed.from?.value).toEqual([{ name: 'Piaffe', address: 'shop@shop.piaffe.test' }]);
    } finally {
      await shop.stop();
      await local.close();
    }
  });

  it('tells a cancelled order, a changed password, and a changed e-mail (to the old address)', async () => {
    const client = new Client(server.url);
    const { email } = await client.signupConfirmed();
    const order = await client.order('2');
    await client.json('POST', `/api/orders/${order.number}/cancel`);
    const cancelled = await mailbox.waitFor((m) => to(email)(m) && /cancelled/.test(m.parsed.subject ?? ''));
    expect(cancelled.parsed.text).toContain(`As you asked, we have cancelled your order ${order.number}.`);

    await client.login(email, 'secret1');
    expect((await client.json('PUT', '/api/account/password', { password: 'secret2' })).status).toBe(204);
    const changed = await mailbox.waitFor((m) => to(email)(m) && m.parsed.subject === 'Your password has been changed');
    expect(changed.parsed.text).toContain('every device that was logged in has been logged out.');
    // A change made while logged in proves nothing about the address: passkeys stay (ADR 0030).
    expect(changed.parsed.text).not.toContain('passkey');

    await client.login(email, 'secret2');
    const newEmail = randomEmail();
    expect((await client.json('PUT', '/api/account/email', { email: newEmail })).status).toBe(204);
    const moved = await mailbox.waitFor(
      (m) => to(email)(m) && m.parsed.subject === 'The e-mail address of your account has been changed',
    );
    expect(moved.parsed.text).not.toContain(newEmail);
    // The new address is told only how to confirm it (docs/product.md §15).
    const confirm = await mailbox.waitFor(to(newEmail));
    expect(confirm.parsed.subject).toBe('Please confirm your e-mail address');
    expect(mailbox.mails.filter(to(newEmail))).toHaveLength(1);
  });

  it('writes what a rider typed into an e-mail as text, never as markup or a header', async () => {
    const client = new Client(server.url);
    const { email } = await client.signupConfirmed();
    await client.add('4');
    const fullName = '<img src=x onerror=alert(1)> "Ada" & <b>Rider</b>';
    const reply = await client.placeOrder({ address: { ...address, fullName, line2: '</p><script>x()</script>' } });
    expect(reply.status).toBe(201);
    const { parsed } = await mailbox.waitFor(orderMail(email, reply.body.order.number));
    expect(parsed.html).not.toMatch(/<img src=x|<script>|<b>Rider/);
    expect(parsed.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Ada&quot; &amp; &lt;b&gt;Rider&lt;/b&gt;');
    // What a rider typed never leads the e-mail: the name shows only after the label of the delivery address.
    const text = parsed.text ?? '';
    expect(text.startsWith('Hello,\n')).toBe(true);
    expect(text.indexOf(fullName)).toBe(text.indexOf(`Delivery address: ${fullName}, `) + 'Delivery address: '.length);
    // Only the headers the shop sets: nothing typed by a rider reaches one.
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe(email);
  });
});

describe('attachments', () => {
  it('sends a file written with an e-mail to the outbox, its bytes intact', async () => {
    const email = randomEmail();
    // Every byte value, and more than one line of base64, so that no encoding on the way can pass unnoticed.
    const content = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
    await server.db.run((uow) =>
      outboxOf(server).enqueue(
        uow,
        'password-changed',
        email,
        {},
        {
          attachment: { filename: 'invoice PF-10001.pdf', contentType: 'application/pdf', content },
        },
      ),
    );
    const { parsed } = await mailbox.waitFor(to(email));
    expect(parsed.subject).toBe('Your password has been changed');
    expect(parsed.attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
      { filename: 'invoice PF-10001.pdf', contentType: 'application/pdf' },
    ]);
    expect(Buffer.compare(parsed.attachments[0]?.content ?? Buffer.alloc(0), Buffer.from(content))).toBe(0);
    // Kept with the e-mail once sent.
    const row = () =>
      server.db.kysely
        .selectFrom('outbox')
        .select(['state', 'attachment_bytes'])
        .where('recipient', '=', email)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => (await row()).state).toBe('sent');
    const { attachment_bytes } = await row();
    expect(Buffer.from(attachment_bytes ?? []).equals(Buffer.from(content))).toBe(true);
  });

  it('sends an e-mail written without one with no attachment', async () => {
    const email = randomEmail();
    await server.db.run((uow) => outboxOf(server).enqueue(uow, 'password-changed', email, {}));
    const { parsed } = await mailbox.waitFor(to(email));
    expect(parsed.attachments).toEqual([]);
  });
});

describe('health', () => {
  it('tells nobody whether an address has an account: a reset e-mail never shows, however old', async () => {
    const shop = await startTestServer({ PUBLIC_URL: publicShop }, { mailbox: false });
    try {
      const rider = new Client(shop.url);
      const { email } = await rider.signup();
      const before = await health(shop);
      expect((await rider.json('POST', '/api/auth/password-reset', { email })).status).toBe(204);
      expect(await health(shop)).toEqual(before);
      await shop.db.kysely
        .updateTable('outbox')
        .set({ created_at: Date.now() - 60 * 60_000 })
        .where('kind', '=', 'password-reset')
        .execute();
      // The link to confirm the address and the reset link: neither shows, both hold a secret link.
      expect(await inState(shop, 'waiting')).toBe(2);
      expect(await health(shop)).toEqual(before);
    } finally {
      await shop.stop();
    }
  });
});

describe('when SMTP fails', () => {
  it('keeps e-mails waiting while SMTP is down, retries, and delivers each once when it is back', async () => {
    const down = await testMailbox();
    const port = down.port;
    await down.close();
    const shop = await startTestServer({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_RETRY_DELAYS: '0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3',
    });
    try {
      // Two riders sign up: each link to confirm an address waits (without one, neither can order).
      const emails = [(await new Client(shop.url).signup()).email, (await new Client(shop.url).signup()).email];
      await expect.poll(() => inState(shop, 'waiting')).toBe(2);
      await expect
        .poll(async () =>
          Number(
            (
              await shop.db.kysely
                .selectFrom('outbox')
                .select((eb) => eb.fn.min('attempts').as('tries'))
                .executeTakeFirst()
            )?.tries,
          ),
        )
        .toBeGreaterThanOrEqual(2);

      const up = await testMailbox({ port });
      try {
        for (const email of emails) await up.waitFor(to(email));
        await expect.poll(() => inState(shop, 'waiting')).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 500));
        for (const email of emails) expect(up.mails.filter(to(email))).toHaveLength(1);
        const rows = await shop.db.kysely.selectFrom('outbox').select(['state', 'last_error', 'sent_at']).execute();
        for (const row of rows) {
          expect(row.state).toBe('sent');
          expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
          expect(row.sent_at).not.toBeNull();
        }
      } finally {
        await up.close();
      }
    } finally {
      await shop.stop();
    }
  });

  it('marks an e-mail failed after its last retry, keeps the reason, logs it without the address, and stays healthy', async () => {
    const refusing = await testMailbox();
    refusing.refuseWith = { code: 451, message: 'Mailbox temporarily unavailable' };
    const shop = await startTestServer({ SMTP_URL: refusing.url, MAIL_RETRY_DELAYS: '0.1,0.1' }, { captureLog: true });
    try {
      // The sign-up's link to confirm the address is the e-mail that cannot be sent (and counts: nobody but the
      // account's owner can have it sent).
      const { email } = await new Client(shop.url).signup();
      await expect.poll(async () => (await health(shop)).failed, { timeout: 10_000 }).toBe(1);
      const reply = await new Client(shop.url).json('GET', '/healthz');
      expect(reply.status).toBe(200);
      expect(reply.body.mail).toEqual({ sending: true, overdue: 0, failed: 1 });
      const row = await shop.db.kysely.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'failed', attempts: 3 });
      expect(row.last_error).toContain('Mailbox temporarily unavailable');
      const lines = shop.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const failed = lines.find((line) => line.msg === 'e-mail failed after its last retry');
      expect(failed).toMatchObject({ level: 'error', kind: 'confirm-email', attempts: 3 });
      expect(String(failed?.reason)).toContain('Mailbox temporarily unavailable');
      expect(lines.filter((line) => line.msg === 'e-mail not sent; it will be retried')).toHaveLength(2);
      for (const line of shop.logLines) expect(line).not.toContain(email);
      expect(refusing.mails).toEqual([]);
    } finally {
      await shop.stop();
      await refusing.close();
    }
  });
});
