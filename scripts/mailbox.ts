// A local mailbox: an SMTP server on 127.0.0.1 that keeps every e-mail it receives, for the tests (which read
// them) and for `npm run dev` (which shows them in the browser, see `serveMailbox`). Nothing leaves the machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** 1, 2, ... in the order of arrival. */
  id: number;
  /** The envelope's recipients, as the sender gave them (RCPT TO). */
  to: string[];
  parsed: ParsedMail;
  receivedAt: Date;
}

export interface Mailbox {
  /** SMTP_URL for a server that should send here. */
  url: string;
  port: number;
  readonly mails: ReceivedMail[];
  /** While set, every message is refused with this SMTP reply (e.g. 451, a passing failure). */
  refuseWith: { code: number; message: string } | undefined;
  /** The first e-mail (from the `after`-th on) that `match` accepts, waiting up to `ms` for it. */
  waitFor(match: (mail: ReceivedMail) => boolean, options?: { ms?: number; after?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const maxMessageBytes = 1024 * 1024;

/** Starts the mailbox on `port` (0: any free port); `acceptAfterMs` makes each message take that long (a slow server). */
export async function startMailbox({
  port = 0,
  acceptAfterMs = 0,
}: {
  port?: number;
  acceptAfterMs?: number;
} = {}): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const mailbox: Mailbox = {
    url: '',
    port: 0,
    mails,
    refuseWith: undefined,
    async waitFor(match, { ms = 10_000, after = 0 } = {}) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = mails.slice(after).find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching e-mail within ${ms} ms (${mails.length} received)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxMessageBytes,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          if (acceptAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptAfterMs));
          const refusal = mailbox.refuseWith;
          if (refusal) {
            callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
            return;
          }
          mails.push({
            id: mails.length + 1,
            to: session.envelope.rcptTo.map((r) => r.address),
            parsed,
            receivedAt: new Date(),
          });
          for (const wake of [...waiters]) wake();
          callback();
        })
        .catch(callback);
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.listen(port, '127.0.0.1', () => resolve());
    server.server.once('error', reject);
  });
  const { port: bound } = server.server.address() as AddressInfo;
  mailbox.port = bound;
  mailbox.url = `smtp://127.0.0.1:${bound}`;
  return mailbox;
}

const escapeText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Shows the mailbox's e-mails on http://127.0.0.1:`port`: a list, and each e-mail's HTML and text parts; and, for
 * tests in another process (the browser tests), all of them as JSON at /mails.json.
 */
export async function serveMailbox(mailbox: Mailbox, port: number): Promise<Server> {
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeText(title)}</title>` +
    '<style>body{font:16px system-ui;margin:2rem;max-width:60rem}td,th{padding:.3rem .8rem;text-align:left}' +
    'iframe{width:100%;height:32rem;border:1px solid #ccc}pre{white-space:pre-wrap;background:#f5f5f5;padding:1rem}</style>' +
    `</head><body>${body}</body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/mails.json') {
      response.setHeader('Content-Type', 'application/json');
      response.end(
        JSON.stringify(
          mailbox.mails.map(({ id, to, parsed }) => ({
            id,
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html || '',
          })),
        ),
      );
      return;
    }
    const id = Number(/^\/mail\/(\d+)$/.exec(request.url ?? '')?.[1]);
    const mail = mailbox.mails.find((m) => m.id === id);
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (mail) {
      const { subject = '', text = '', html } = mail.parsed;
      // The e-mail's own HTML, in a sandbox: no script runs, nothing reaches this page.
      const frame = html ? `<iframe sandbox srcdoc="${escapeText(html)}" title="HTML part"></iframe>` : '';
      response.end(
        page(
          subject,
          `<p><a href="/">All e-mails</a></p><h1>${escapeText(subject)}</h1><p>To ${escapeText(mail.to.join(', '))}, ` +
            `${mail.receivedAt.toLocaleString()}</p>${frame}<h2>Plain text</h2><pre>${escapeText(text)}</pre>`,
        ),
      );
      return;
    }
    const rows = [...mailbox.mails]
      .reverse()
      .map(
        (m) =>
          `<tr><td>${m.receivedAt.toLocaleTimeString()}</td><td>${escapeText(m.to.join(', '))}</td>` +
          `<td><a href="/mail/${m.id}">${escapeText(m.parsed.subject ?? '(no subject)')}</a></td></tr>`,
      )
      .join('');
    response.statusCode = request.url === '/' ? 200 : 404;
    response.end(
      page(
        'Piaffe mailbox',
        '<h1>Piaffe mailbox</h1><p>Every e-mail the shop sends while you develop lands here. Reload to see new ones.</p>' +
          (rows ? `<table><tr><th>Time</th><th>To</th><th>Subject</th></tr>${rows}</table>` : '<p>No e-mails yet.</p>'),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return server;
}
