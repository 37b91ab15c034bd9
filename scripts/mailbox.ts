// A mailbox over SMTP: an SMTP server on 127.0.0.1 that keeps every e-mail it receives, for the tests (which read
// them) and for `npm run dev` (which shows them in the browser, see `serveMailbox`). Nothing leaves the machine. A
// shop started with no SMTP_URL on this machine needs none of it: it keeps its e-mails itself
// (src/server/mail/local-mailbox.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { answerMailboxPage, type KeptMail } from '../src/server/mail/mailbox-pages';

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

/** The e-mail as the mailbox pages show it. */
const kept = ({ id, to, parsed, receivedAt }: ReceivedMail): KeptMail => ({
  id,
  to,
  subject: parsed.subject ?? '',
  text: parsed.text ?? '',
  html: parsed.html || '',
  attachments: parsed.attachments.map(({ filename, contentType, size }) => ({
    filename: filename ?? '',
    contentType,
    size,
  })),
  receivedAt,
});

/**
 * Shows the mailbox's e-mails on http://127.0.0.1:`port`, with the pages of the shop's local mailbox
 * (src/server/mail/mailbox-pages.ts); and, for tests in another process (the browser tests), all of them as JSON at
 * /mails.json.
 */
export async function serveMailbox(mailbox: Mailbox, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/mails.json') {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify(mailbox.mails.map(kept).map(({ receivedAt, ...mail }) => mail)));
      return;
    }
    answerMailboxPage(request, response, mailbox.mails.map(kept));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return server;
}
