import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { outboxOf, startTestServer, type TestServer } from '../support/server';

/**
 * Mail with no SMTP_URL: kept in a local mailbox when PUBLIC_URL is on this machine (the README's first run), waiting
 * in the outbox otherwise (docs/decisions/0031-a-local-mailbox.md). Alone in its file: it counts the servers this
 * process listens with, so no other test's may open or close meanwhile.
 */

/** A PUBLIC_URL that is not this machine's. */
const publicShop = 'https://shop.piaffe.test';

/** How many servers this process listens with (the shop's, a mailbox's...). */
const listeningServers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

async function health(of: TestServer) {
  return (await new Client(of.url).json('GET', '/healthz')).body.mail;
}

/** How many e-mails of the server's outbox are in `state`. */
async function inState(of: TestServer, state: string): Promise<number> {
  const rows = await of.db.kysely.selectFrom('outbox').select('id').where('state', '=', state).execute();
  return rows.length;
}

describe('with no SMTP_URL and a public PUBLIC_URL', () => {
  it('says once at start that e-mails wait when SMTP_URL is not set and PUBLIC_URL is public, keeps them, and serves no mailbox', async () => {
    const before = listeningServers();
    const shop = await startTestServer({ PUBLIC_URL: publicShop }, { captureLog: true, mailbox: false });
    try {
      // The shop's own port, and nothing else: no mailbox anywhere, whatever its address.
      expect(listeningServers()).toBe(before + 1);
      // The sign-up's link to confirm the address is the e-mail that waits.
      await new Client(shop.url).signup();
      const lines = shop.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.filter((line) => String(line.msg).includes('SMTP_URL is not set'))).toEqual([
        expect.objectContaining({ level: 'warn', msg: expect.stringContaining('e-mails wait in the outbox') }),
      ]);
      expect(shop.logLines.join('\n')).not.toContain('mailbox');
      expect(await inState(shop, 'waiting')).toBe(1);
      expect(await health(shop)).toEqual({ sending: false, overdue: 0, failed: 0 });
      // Ten minutes on, it is overdue.
      await shop.db.kysely
        .updateTable('outbox')
        .set({ created_at: Date.now() - 11 * 60_000 })
        .execute();
      expect(await health(shop)).toEqual({ sending: false, overdue: 1, failed: 0 });
    } finally {
      await shop.stop();
    }
    // Closed with the shop (a server's handle goes a turn of the event loop after it).
    await expect.poll(listeningServers).toBe(before);
  });
});

describe('with no SMTP_URL on this machine', () => {
  it('keeps the e-mails in a local mailbox on 127.0.0.1, behind a secret path it names once at start', async () => {
    const before = listeningServers();
    // PUBLIC_URL unset: http://localhost:<PORT>, the README's first run.
    const shop = await startTestServer({}, { captureLog: true, mailbox: false });
    try {
      expect(listeningServers()).toBe(before + 2);
      const rider = new Client(shop.url);
      const { email } = await rider.signup();
      const lines = shop.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const said = lines.filter((line) => String(line.msg).includes('SMTP_URL is not set'));
      expect(said).toHaveLength(1);
      const url = String(said[0]?.mailbox);
      expect(said[0]?.msg).toContain(`read them at ${url}`);
      const { origin, pathname } = new URL(url);
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(origin).not.toBe(shop.url);
      expect(pathname).toMatch(/^\/[A-Za-z0-9_-]{32}\/$/);

      // Sent, as over SMTP: the outbox marks it so, and the mailbox shows it.
      await expect.poll(() => inState(shop, 'sent')).toBe(1);
      expect(await health(shop)).toEqual({ sending: true, overdue: 0, failed: 0 });
      const list = await fetch(url);
      expect(list.status).toBe(200);
      expect(list.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(list.headers.get('referrer-policy')).toBe('no-referrer');
      const listed = await list.text();
      expect(listed).toContain(email);
      const mailPath = /href="([^"]+\/mail\/1)"/.exec(listed)?.[1];
      expect(mailPath).toBe(`${pathname}mail/1`);
      const mail = await (await fetch(new URL(mailPath ?? '', url))).text();
      expect(mail).toContain('Please confirm your e-mail address');
      expect(mail).toMatch(/<a href="http:\/\/localhost:\d+\/confirm-email#token=[A-Za-z0-9_-]+">/);
      // Its HTML part, on a page of its own, sandboxed: no script of the e-mail runs with the mailbox's origin.
      const html = await fetch(`${url}mail/1/html`);
      expect(html.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(await html.text()).toContain('Please confirm that this is your address');

      // The address as said at start without its last slash (typed, or cut off when copied): the same page.
      const unslashed = await fetch(url.slice(0, -1), { redirect: 'manual' });
      expect(unslashed.status).toBe(308);
      expect(unslashed.headers.get('location')).toBe(pathname);
      expect(await (await fetch(url.slice(0, -1))).text()).toContain(email);

      // Without the secret, or on the shop's own address, nothing; without its slash either.
      const wrong = `/${'A'.repeat(32)}/`;
      for (const guess of [
        '/',
        wrong,
        wrong.slice(0, -1),
        `${wrong}mail/1`,
        `/${pathname.slice(1, -2)}/`,
        pathname.slice(0, -2),
      ]) {
        const reply = await fetch(new URL(guess, origin));
        expect(reply.status).toBe(404);
        expect(await reply.text()).toBe('');
      }
      expect(await (await fetch(new URL(pathname, shop.url))).text()).not.toContain('Piaffe mailbox');
      // Bound to the loopback: from the machine's other addresses, no answer at all.
      const { port } = new URL(url);
      const outside = Object.values(networkInterfaces())
        .flat()
        .filter((face) => face && !face.internal && face.family === 'IPv4');
      for (const face of outside) await expect(fetch(`http://${face?.address}:${port}${pathname}`)).rejects.toThrow();
      expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    } finally {
      await shop.stop();
    }
    // The mailbox closed with the shop.
    await expect.poll(listeningServers).toBe(before);
  });

  it('lists the file an e-mail carries, by name, type and size', async () => {
    const shop = await startTestServer({}, { captureLog: true, mailbox: false });
    try {
      const attachment = { filename: 'invoice.pdf', contentType: 'application/pdf', content: new Uint8Array(1234) };
      await shop.db.run((uow) =>
        outboxOf(shop).enqueue(uow, 'password-changed', 'rider@example.test', {}, { attachment }),
      );
      await expect.poll(() => inState(shop, 'sent')).toBe(1);
      const lines = shop.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const url = String(lines.find((line) => String(line.msg).includes('SMTP_URL is not set'))?.mailbox);
      expect(await (await fetch(`${url}mail/1`)).text()).toContain(
        'Attached: invoice.pdf (application/pdf, 1234 bytes).',
      );
    } finally {
      await shop.stop();
    }
  });
});
