import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMailboxPage, type KeptMail } from './mailbox-pages';

const mails: KeptMail[] = [
  {
    id: 1,
    to: ['rider@example.test'],
    subject: 'Your order <script>alert(1)</script>',
    text: 'Open https://shop.test/orders/PF-1?a=1&b="2" now, not javascript:alert(1) or <img src=x onerror=alert(1)>.',
    html: '<p onclick="alert(1)">Hello</p>',
    attachments: [{ filename: 'invoice <PF-1>.pdf', contentType: 'application/pdf', size: 1234 }],
    receivedAt: new Date('2026-11-26T07:00:00Z'),
  },
  {
    id: 2,
    to: ['other@example.test'],
    subject: 'Text only',
    text: 'Hello',
    html: '',
    attachments: [],
    receivedAt: new Date(),
  },
];

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((request, response) => answerMailboxPage(request, response, mails, '/secret'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const page = async (path: string) => {
  const response = await fetch(`${origin}${path}`);
  return { status: response.status, headers: response.headers, body: await response.text() };
};

describe('the mailbox pages', () => {
  it('list the e-mails newest first, under their base, with what was typed as text', async () => {
    const { status, body } = await page('/secret/');
    expect(status).toBe(200);
    expect(body.indexOf('/secret/mail/2')).toBeLessThan(body.indexOf('/secret/mail/1'));
    expect(body).toContain('Your order &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>');
  });

  it("show an e-mail's plain text escaped, with only its http(s) links made links", async () => {
    const { body, headers } = await page('/secret/mail/1');
    expect(body).toContain(
      '<a href="https://shop.test/orders/PF-1?a=1&amp;b=&quot;2&quot;">https://shop.test/orders/PF-1?a=1&amp;b=&quot;2&quot;</a>',
    );
    expect(body).toContain('not javascript:alert(1) or &lt;img src=x onerror=alert(1)&gt;.');
    expect(body).not.toContain('<img');
    expect(body).toContain('<a href="/secret/mail/1/html">See it as HTML</a>');
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(headers.get('content-security-policy')).not.toContain('script-src');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("list an e-mail's attachments by name, type and size, as text", async () => {
    const { body } = await page('/secret/mail/1');
    expect(body).toContain('Attached: invoice &lt;PF-1&gt;.pdf (application/pdf, 1234 bytes).');
    expect((await page('/secret/mail/2')).body).not.toContain('Attached');
  });

  it("serve an e-mail's HTML part only sandboxed, and none for a text-only e-mail", async () => {
    const html = await page('/secret/mail/1/html');
    expect(html.body).toBe('<p onclick="alert(1)">Hello</p>');
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none';/);
    expect((await page('/secret/mail/2')).body).not.toContain('See it as HTML');
    expect((await page('/secret/mail/2/html')).status).toBe(404);
  });

  it('send the base without its slash to the list (308), and nothing else', async () => {
    for (const method of ['GET', 'HEAD']) {
      const reply = await fetch(`${origin}/secret`, { method, redirect: 'manual' });
      expect(reply.status, method).toBe(308);
      expect(reply.headers.get('location'), method).toBe('/secret/');
      expect(reply.headers.get('cache-control'), method).toBe('no-store');
    }
    expect((await page('/secret')).body).toContain('<h1>Piaffe mailbox</h1>');
    for (const path of ['/secre', '/secretx', '/secret/mail', '/secret//', '/secret?x=1']) {
      expect((await fetch(`${origin}${path}`, { redirect: 'manual' })).status, path).toBe(404);
    }
  });

  it('answer 404 outside their base or for an unknown e-mail, and 405 to anything but reading', async () => {
    for (const path of ['/', '/mail/1', '/secretx/', '/secret/mail/3', '/secret/mail/1/x']) {
      expect((await page(path)).status).toBe(404);
    }
    expect((await fetch(`${origin}/secret/`, { method: 'POST' })).status).toBe(405);
  });
});
