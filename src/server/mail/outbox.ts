import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { OutboxEmail, OutboxPage } from '../../shared/admin';
import type { MailKind, OutboxState } from '../../shared/mail';
import type { PublicShop } from '../../shared/settings';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import { pageCount, rowsOfPage } from '../db/paging';
import type { OutboxTable, Tables } from '../db/schema';
import type { Seal } from './seal';
import { askedByAnyoneKinds, type MailData, render, secretKinds } from './templates';

/** An e-mail was written to the outbox: every server's sender wakes up (the first to claim it sends it). */
export const outboxTopic = topic<{ type: 'enqueued' }>('outbox');

export type OutboxRow = Selectable<OutboxTable>;

/** What an e-mail's secret body becomes once it has been sent or has failed for good. */
const clearedBody = '(Cleared once sent: it held a single-use link.)';
/** An e-mail still waiting this long after it was written is overdue: e-mail needs a look. */
export const overdueAfterMs = 10 * 60 * 1000;
/** Errors are kept for the owner, cut to this length. */
const maxErrorLength = 500;

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.slice(0, maxErrorLength);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A file an e-mail carries. */
export interface Attachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** The file the e-mail `row` carries, if any. */
export function attachmentOf(row: OutboxRow): Attachment | undefined {
  const { attachment_name: filename, attachment_type: contentType, attachment_bytes: content } = row;
  if (filename === null || contentType === null || content === null) return undefined;
  return { filename, contentType, content };
}

/** An e-mail as the owner sees it: never its body. */
function toOutboxEmail(row: Pick<OutboxRow, (typeof visible)[number]>): OutboxEmail {
  const state = row.state as OutboxState;
  return {
    id: row.id,
    kind: row.kind as MailKind,
    recipient: row.recipient,
    subject: row.subject,
    state,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    sentAt: iso(row.sent_at),
    nextAttemptAt: state === 'waiting' ? iso(row.next_attempt_at) : null,
    retryable: state === 'failed' && !secretKinds.has(row.kind as MailKind),
  };
}

/** The columns the owner may see. */
const visible = [
  'id',
  'kind',
  'recipient',
  'subject',
  'state',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'sent_at',
] as const;

/** The outcome of one try of the e-mail `id`: sent, to be retried later, or failed for good (after the last retry). */
export type Attempt = { id: string; kind: string; attempts: number } & (
  | { outcome: 'sent' }
  | { outcome: 'retry' | 'failed'; error: string }
);

export type Outbox = ReturnType<typeof createOutbox>;

/**
 * The `outbox` table (docs/product.md §9): e-mails are written in the unit of work of the change that causes
 * them, and leave later through the sender (sender.ts). See docs/decisions/0016-the-e-mail-outbox.md.
 */
/** What the outbox signs e-mails with: PUBLIC_URL, and the shop's settings as the unit writing the e-mail reads them. */
export interface OutboxSite {
  publicUrl: string;
  shop(uow: UnitOfWork): Promise<PublicShop>;
}

export function createOutbox(db: Db, site: OutboxSite, seal: Seal) {
  const due = (executor: Kysely<Tables>, now: number) =>
    executor
      .selectFrom('outbox')
      .selectAll()
      .where('state', '=', 'waiting')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('created_at')
      .limit(1);

  /** Tries to deliver `row` once and records what happened, on `executor` (the claiming transaction, if any). */
  async function attempt(
    executor: Kysely<Tables>,
    row: OutboxRow,
    deliver: (row: OutboxRow) => Promise<void>,
    retryDelaysMs: readonly number[],
  ): Promise<Attempt> {
    const attempts = Number(row.attempts) + 1;
    const tried = { id: row.id, kind: row.kind, attempts };
    const cleared = secretKinds.has(row.kind as MailKind) ? { text_body: clearedBody, html_body: clearedBody } : {};
    const update = executor.updateTable('outbox').where('id', '=', row.id);
    try {
      await deliver({ ...row, text_body: seal.open(row.text_body), html_body: seal.open(row.html_body) });
    } catch (failure) {
      const error = describe(failure);
      const delay = retryDelaysMs[attempts - 1];
      if (delay === undefined) {
        await update.set({ state: 'failed', attempts, last_error: error, ...cleared }).execute();
        return { ...tried, outcome: 'failed', error };
      }
      await update.set({ attempts, last_error: error, next_attempt_at: Date.now() + delay }).execute();
      return { ...tried, outcome: 'retry', error };
    }
    await update.set({ state: 'sent', attempts, sent_at: Date.now(), ...cleared }).execute();
    return { ...tried, outcome: 'sent' };
  }

  const insert = db.precompileInsert('outbox', {
    id: true,
    kind: true,
    recipient: true,
    subject: true,
    text_body: true,
    html_body: true,
    state: true,
    attempts: true,
    next_attempt_at: true,
    last_error: true,
    created_at: true,
    sent_at: true,
    attachment_name: true,
    attachment_type: true,
    attachment_bytes: true,
  });

  return {
    /**
     * Deletes, as part of `uow`, the e-mails to `to` that carry a link (a reset, a confirmation), sent or not: the
     * account they were for is being deleted. E-mails about orders stay with the orders, for the shop's books.
     */
    async forgetLinksTo(uow: UnitOfWork, to: string): Promise<void> {
      await uow.trx
        .deleteFrom('outbox')
        .where('recipient', '=', to)
        .where('kind', 'in', [...secretKinds])
        .execute();
    },

    /**
     * Writes an e-mail of `kind` to `to`, as part of `uow`: it is sent only if and once the unit commits, with the
     * file `attachment`, if given.
     */
    async enqueue<K extends MailKind>(
      uow: UnitOfWork,
      kind: K,
      to: string,
      data: MailData<K>,
      { attachment }: { attachment?: Attachment } = {},
    ): Promise<void> {
      const message = render(kind, data, { publicUrl: site.publicUrl, shop: await site.shop(uow) });
      const secret = secretKinds.has(kind);
      const now = Date.now();
      await insert(uow.trx, {
        id: randomUUID(),
        kind,
        recipient: to,
        subject: message.subject,
        text_body: secret ? seal.seal(message.text) : message.text,
        html_body: secret ? seal.seal(message.html) : message.html,
        state: 'waiting',
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        created_at: now,
        sent_at: null,
        attachment_name: attachment?.filename ?? null,
        attachment_type: attachment?.contentType ?? null,
        attachment_bytes: attachment?.content ?? null,
      });
      uow.publish(outboxTopic, { type: 'enqueued' });
    },

    /**
     * Claims the next e-mail that is due and tries to deliver it; undefined when none is due. On PostgreSQL the
     * claim is a row lock (`FOR UPDATE SKIP LOCKED`) held until the outcome is recorded, so no two servers send
     * one e-mail, and a server that dies mid-send lets go of it at once. On SQLite one server, and in it one
     * sender, is the only one sending.
     */
    async sendNext(
      deliver: (row: OutboxRow) => Promise<void>,
      retryDelaysMs: readonly number[],
    ): Promise<Attempt | undefined> {
      if (db.dialect === 'sqlite') {
        const row = await due(db.kysely, Date.now()).executeTakeFirst();
        return row && attempt(db.kysely, row, deliver, retryDelaysMs);
      }
      return db.kysely.transaction().execute(async (trx: Transaction<Tables>) => {
        const row = await due(trx, Date.now()).forUpdate().skipLocked().executeTakeFirst();
        return row && attempt(trx, row, deliver, retryDelaysMs);
      });
    },

    /** When the earliest waiting e-mail is due (epoch ms); undefined when none waits. */
    async nextDueAt(): Promise<number | undefined> {
      const row = await db.kysely
        .selectFrom('outbox')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('state', '=', 'waiting')
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },

    /** A page of e-mails, newest first, of one state or all; never a body. */
    async list({ state, page }: { state?: OutboxState; page: number }): Promise<OutboxPage> {
      const rows = await db.kysely
        .selectFrom('outbox')
        .select((eb) => ['state', eb.fn.countAll<number | string>().as('count')])
        .groupBy('state')
        .execute();
      const counts = { waiting: 0, sent: 0, failed: 0 };
      for (const row of rows) counts[row.state as OutboxState] = Number(row.count);
      const total = state ? counts[state] : counts.waiting + counts.sent + counts.failed;
      let query = db.kysely.selectFrom('outbox').select(visible);
      if (state) query = query.where('state', '=', state);
      const { limit, offset } = rowsOfPage(page);
      const emails = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute();
      return { emails: emails.map(toOutboxEmail), page, pages: pageCount(total), total, counts };
    },

    /**
     * Sends a failed e-mail again, from its first try: waiting, due now, the senders woken. Undefined when there is
     * no such e-mail; `not-retryable` unless it failed and holds no reset link (cleared when it failed).
     */
    async retry(id: string): Promise<OutboxEmail | 'not-retryable' | undefined> {
      return db.run(async (uow) => {
        const row = await uow.trx.selectFrom('outbox').select(visible).where('id', '=', id).executeTakeFirst();
        if (!row) return undefined;
        if (!toOutboxEmail(row).retryable) return 'not-retryable';
        const now = Date.now();
        const retried = await uow.trx
          .updateTable('outbox')
          .set({ state: 'waiting', attempts: 0, next_attempt_at: now })
          .where('id', '=', id)
          .where('state', '=', 'failed')
          .executeTakeFirst();
        if (Number(retried.numUpdatedRows) === 0) return 'not-retryable';
        uow.publish(outboxTopic, { type: 'enqueued' });
        return toOutboxEmail({ ...row, state: 'waiting', attempts: 0, next_attempt_at: now });
      });
    },

    /**
     * For /healthz, which anyone may read: how many e-mails are overdue (waiting longer than `overdueAfterMs`) and
     * how many failed. Password-reset e-mails are left out, since whether one was written tells whether an account
     * exists; so is what was written in the last minutes, which would show the shop's business as it happens.
     */
    /** For the operator's metrics: e-mails waiting and failed, and when the oldest waiting one was written. */
    async backlog(): Promise<{ waiting: number; failed: number; oldestWaitingAt: number | undefined }> {
      const rows = await db.kysely
        .selectFrom('outbox')
        .select((eb) => ['state', eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('oldest')])
        .where('state', 'in', ['waiting', 'failed'])
        .groupBy('state')
        .execute();
      const of = (state: OutboxState) => rows.find((row) => row.state === state);
      const oldest = of('waiting')?.oldest;
      return {
        waiting: Number(of('waiting')?.count ?? 0),
        failed: Number(of('failed')?.count ?? 0),
        oldestWaitingAt: oldest === undefined || oldest === null ? undefined : Number(oldest),
      };
    },

    async health(): Promise<{ overdue: number; failed: number }> {
      const rows = await db.kysely
        .selectFrom('outbox')
        .select((eb) => ['state', eb.fn.countAll<number | string>().as('count')])
        .where('kind', 'not in', [...askedByAnyoneKinds])
        .where((eb) =>
          eb.or([
            eb('state', '=', 'failed'),
            eb.and([eb('state', '=', 'waiting'), eb('created_at', '<', Date.now() - overdueAfterMs)]),
          ]),
        )
        .groupBy('state')
        .execute();
      const count = (state: OutboxState) => Number(rows.find((row) => row.state === state)?.count ?? 0);
      return { overdue: count('waiting'), failed: count('failed') };
    },
  };
}
