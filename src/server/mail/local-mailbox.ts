import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transport } from 'nodemailer';
import { answerMailboxPage, type KeptMail } from './mailbox-pages';

/** The newest e-mails the local mailbox keeps; older ones are dropped, so that a shop left running does not grow. */
const localMailboxSize = 200;

export interface LocalMailbox {
  /** Where the e-mails can be read: on 127.0.0.1 only, behind a secret path. */
  url: string;
  /** A Nodemailer transport that keeps each e-mail here instead of sending it. */
  transport: Transport;
  close(): Promise<void>;
}

/**
 * Whether a host name is this machine: `localhost`, 127.0.0.0/8 or [::1] (as `URL#hostname` writes them). Nothing
 * else counts, not even a name that resolves to the loopback here: it may resolve elsewhere for somebody else.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** Whether the secret path segment of `url` is `secret`, compared in constant time. */
function holdsSecret(url: string | undefined, secret: Buffer): boolean {
  const given = Buffer.from(/^\/([^/]*)/.exec(url ?? '')?.[1] ?? '');
  return given.length === secret.length && timingSafeEqual(given, secret);
}

/**
 * The mailbox of a shop that runs on this machine with no SMTP_URL (docs/decisions/0031-a-local-mailbox.md): e-mails
 * are kept in memory (the newest `localMailboxSize`) and shown on http://127.0.0.1:<any free port>/<secret>/, a
 * server of its own bound to the loopback, so that nobody on the network, no web page and no other user of the
 * machine can read the links they hold.
 */
export async function openLocalMailbox(): Promise<LocalMailbox> {
  const mails: KeptMail[] = [];
  let lastId = 0;
  const secret = randomBytes(24).toString('base64url');
  const secretBytes = Buffer.from(secret);
  const server = createServer((request, response) => {
    if (!holdsSecret(request.url, secretBytes)) {
      response.statusCode = 404;
      response.end();
      return;
    }
    answerMailboxPage(request, response, mails, `/${secret}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const transport: Transport = {
    name: 'piaffe-local-mailbox',
    version: '1',
    send(mail, callback) {
      const { subject, text, html, attachments = [] } = mail.data;
      const envelope = mail.message.getEnvelope();
      lastId += 1;
      mails.push({
        id: lastId,
        to: envelope.to,
        subject: typeof subject === 'string' ? subject : '',
        text: typeof text === 'string' ? text : '',
        html: typeof html === 'string' ? html : '',
        // The sender gives each file as a Buffer (sender.ts).
        attachments: attachments.map(({ filename, contentType, content }) => ({
          filename: typeof filename === 'string' ? filename : '',
          contentType: contentType ?? '',
          size: Buffer.isBuffer(content) ? content.length : 0,
        })),
        receivedAt: new Date(),
      });
      if (mails.length > localMailboxSize) mails.shift();
      callback(null, { envelope, messageId: mail.message.messageId() });
    },
  };

  return {
    url: `http://127.0.0.1:${port}/${secret}/`,
    transport,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
