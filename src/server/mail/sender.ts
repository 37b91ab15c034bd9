import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { ChangeFeed } from '../db/change-feed';
import { type Logger, withoutEmails } from '../log';
import { openLocalMailbox } from './local-mailbox';
import { attachmentOf, type Outbox, type OutboxRow, outboxTopic } from './outbox';

export interface MailSenderParts {
  outbox: Outbox;
  feed: ChangeFeed;
  transport: Transporter;
  /** MAIL_FROM. */
  from: string;
  /** The host name of Message-IDs: PUBLIC_URL's. */
  host: string;
  /** The pause before each retry (MAIL_RETRY_DELAYS); after the last one an e-mail is marked failed. */
  retryDelaysMs: readonly number[];
  log: Logger;
  /** Called once the sender has stopped (the local mailbox closes its pages). */
  closed?: () => Promise<void>;
}

/** Even with nothing announced, the outbox is looked at this often (a missed announcement, a retry coming due). */
const maxSleepMs = 30_000;
/** After the database failed to answer, the next look waits this long. */
const databaseBackoffMs = 5_000;

/**
 * Sends the outbox's e-mails over SMTP (or into the local mailbox), one at a time, in every server. It wakes when an e-mail is written
 * (on any server: the change feed tells it) and when the next retry comes due; see outbox.ts for how servers
 * share the work without sending an e-mail twice.
 */
export class MailSender {
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #stopListening: () => void;

  constructor(private readonly parts: MailSenderParts) {
    this.#stopListening = parts.feed.subscribe(outboxTopic, () => this.wake());
    this.wake();
  }

  /** Looks for due e-mails now (or right after the look under way). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  async #drain(): Promise<void> {
    const { outbox, retryDelaysMs, log } = this.parts;
    try {
      while (!this.#stopped) {
        const sent = await outbox.sendNext((row) => this.#deliver(row), retryDelaysMs);
        if (!sent) break;
        const about = { outboxId: sent.id, kind: sent.kind, attempts: sent.attempts };
        if (sent.outcome === 'sent') log.info(about, 'e-mail sent');
        else if (sent.outcome === 'retry')
          log.warn({ ...about, reason: withoutEmails(sent.error) }, 'e-mail not sent; it will be retried');
        else log.error({ ...about, reason: withoutEmails(sent.error) }, 'e-mail failed after its last retry');
      }
      this.#sleep(await outbox.nextDueAt());
    } catch (err) {
      log.warn({ err }, 'the outbox could not be read; trying again shortly');
      this.#sleep(Date.now() + databaseBackoffMs);
    }
  }

  #sleep(until: number | undefined): void {
    if (this.#stopped) return;
    const wait = Math.min(maxSleepMs, Math.max(0, (until ?? Number.POSITIVE_INFINITY) - Date.now()));
    this.#timer = setTimeout(() => this.wake(), wait);
    this.#timer.unref();
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const { transport, from, host } = this.parts;
    const attachment = attachmentOf(row);
    await transport.sendMail({
      from,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      attachments: attachment ? [{ ...attachment, content: Buffer.from(attachment.content) }] : [],
      // The same for every try of one e-mail, so a rare duplicate (docs/RELIABILITY.md) is recognisable as one.
      messageId: `<${row.id}@${host}>`,
    });
  }

  /** Stops looking, lets the send under way finish, and closes the transport. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#stopListening();
    await this.#running;
    this.parts.transport.close();
    await this.parts.closed?.();
  }
}

/** Timeouts of one SMTP conversation; a claimed e-mail is held at most about this long (outbox.ts). */
const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Starts sending the outbox: over SMTP_URL; without it, to a local mailbox when PUBLIC_URL is on this machine
 * (said once, with the mailbox's address); otherwise says once that e-mails wait, and sends nothing.
 */
export async function startMailSender(
  config: Config,
  parts: Pick<MailSenderParts, 'outbox' | 'feed' | 'log'>,
): Promise<MailSender | undefined> {
  const { smtpUrl, localMailbox, from, retryDelaysMs } = config.mail;
  const host = new URL(config.publicUrl).hostname;
  if (smtpUrl) {
    const transport = nodemailer.createTransport({ url: smtpUrl, ...smtpTimeouts });
    return new MailSender({ ...parts, transport, from, retryDelaysMs, host });
  }
  if (localMailbox) {
    const mailbox = await openLocalMailbox();
    parts.log.warn(
      { mailbox: mailbox.url },
      `SMTP_URL is not set: e-mails stay on this machine, in a local mailbox; read them at ${mailbox.url}`,
    );
    const transport = nodemailer.createTransport(mailbox.transport);
    return new MailSender({ ...parts, transport, from, retryDelaysMs, host, closed: mailbox.close });
  }
  parts.log.warn(
    'SMTP_URL is not set and PUBLIC_URL is not on this machine: e-mails wait in the outbox, unsent, until a server with SMTP_URL starts; new riders cannot confirm their address, so cannot order',
  );
  return undefined;
}
