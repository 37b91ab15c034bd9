// The pages of a mailbox in the browser: the list of e-mails and each e-mail. One implementation for the shop's
// local mailbox (local-mailbox.ts, `npm start` with no SMTP_URL) and for `npm run dev`'s (scripts/mailbox.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An e-mail as a mailbox keeps it. */
export interface KeptMail {
  /** 1, 2, ... in the order of arrival. */
  id: number;
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  text: string;
  /** The HTML part ('' when there is none). */
  html: string;
  /** The files it carries: named, never shown (their bytes are not kept here). */
  attachments: ReadonlyArray<{ filename: string; contentType: string; size: number }>;
  receivedAt: Date;
}

const escapeText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The plain text, escaped, with its http(s) links made links (the link to confirm an address, a reset link). */
const withLinks = (text: string) =>
  escapeText(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * The page's own markup and styles only; no page may frame the mailbox; nothing is cached, and no link sends this
 * page's address (it may hold a secret).
 */
const headers: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/**
 * An e-mail's own HTML, as a page of its own (a frame in the e-mail's page made links beside it miss clicks now and
 * then in Chromium): sandboxed, so no script runs and it has an origin of its own, and it loads nothing.
 */
const htmlPartPolicy = "sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeText(title)}</title>` +
  '<style>body{font:16px system-ui;margin:2rem;max-width:60rem}td,th{padding:.3rem .8rem;text-align:left}' +
  'pre{white-space:pre-wrap;background:#f5f5f5;padding:1rem}</style>' +
  `</head><body>${body}</body></html>`;

/** `Attached: invoice.pdf (application/pdf, 1234 bytes).`, a line per file. */
const attachedLines = (mail: KeptMail) =>
  mail.attachments
    .map((a) => `<p>Attached: ${escapeText(a.filename)} (${escapeText(a.contentType)}, ${a.size} bytes).</p>`)
    .join('');

function mailPage(mail: KeptMail, base: string): string {
  const htmlPart = mail.html ? ` <a href="${base}/mail/${mail.id}/html">See it as HTML</a>` : '';
  return page(
    mail.subject,
    `<p><a href="${base}/">All e-mails</a></p><h1>${escapeText(mail.subject)}</h1><p>To ` +
      `${escapeText(mail.to.join(', '))}, ${mail.receivedAt.toLocaleString()}.${htmlPart}</p>${attachedLines(mail)}` +
      `<pre>${withLinks(mail.text)}</pre>`,
  );
}

function listPage(mails: readonly KeptMail[], base: string): string {
  const rows = [...mails]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${m.receivedAt.toLocaleTimeString()}</td><td>${escapeText(m.to.join(', '))}</td>` +
        `<td><a href="${base}/mail/${m.id}">${escapeText(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('');
  return page(
    'Piaffe mailbox',
    '<h1>Piaffe mailbox</h1><p>Every e-mail the shop sends lands here, and nothing leaves this machine. Reload to see ' +
      'new ones.</p>' +
      (rows ? `<table><tr><th>Time</th><th>To</th><th>Subject</th></tr>${rows}</table>` : '<p>No e-mails yet.</p>'),
  );
}

/**
 * Answers a request for the mailbox's pages under `base` ('' or '/<secret>'): `base`/ lists the e-mails, newest first,
 * `base`/mail/<id> shows one (its plain text, links made links), `base`/mail/<id>/html its HTML part; `base` itself,
 * without its slash, is sent to `base`/ (308: the address said at start, its slash left out); anything else is 404.
 * The caller has checked the secret: the redirect names only the base it was asked for.
 */
export function answerMailboxPage(
  request: IncomingMessage,
  response: ServerResponse,
  mails: readonly KeptMail[],
  base = '',
): void {
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.statusCode = 405;
    response.setHeader('Allow', 'GET, HEAD');
    response.end();
    return;
  }
  if (base !== '' && request.url === base) {
    response.statusCode = 308;
    response.setHeader('Location', `${base}/`);
    response.end();
    return;
  }
  const path = request.url?.startsWith(`${base}/`) ? request.url.slice(base.length) : undefined;
  const [, id, part] = /^\/mail\/(\d+)(\/html)?$/.exec(path ?? '') ?? [];
  const mail = mails.find((m) => m.id === Number(id));
  if (mail && part && mail.html) {
    response.setHeader('Content-Security-Policy', htmlPartPolicy);
    response.end(mail.html);
  } else if (mail && !part) response.end(mailPage(mail, base));
  else if (path === '/') response.end(listPage(mails, base));
  else {
    response.statusCode = 404;
    response.end(page('Not found', '<p>Not found.</p>'));
  }
}
