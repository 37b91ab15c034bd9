import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { MailKind, OutboxState } from '../../shared/mail';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import type { OutboxTable, Tables } from '../db/schema';
import type { Site } from './message';
import { type MailData, render, secretKinds } from './templates';

/** An e-mail was written to the outbox: every server's sender wakes up (the first to claim it sends it). */
export const outboxTopic = topic<{ type: 'enqueued' }>('outbox');

export type OutboxRow = Selectable<OutboxTable>;

/** What an e-mail's secret body becomes once it has been sent or has failed for good. */
const clearedBody = '(Cleared once sent: it held a single-use password-reset link.)';
/** Errors are kept for the owner, cut to this length. */
const maxErrorLength = 500;

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.slice(0, maxErrorLength);
}

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
export function createOutbox(db: Db, site: Site) {
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
      await deliver(row);
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

  return {
    /** Writes an e-mail of `kind` to `to`, as part of `uow`: it is sent only if and once the unit commits. */
    async enqueue<K extends MailKind>(uow: UnitOfWork, kind: K, to: string, data: MailData<K>): Promise<void> {
      const message = render(kind, data, site);
      const now = Date.now();
      await uow.trx
        .insertInto('outbox')
        .values({
          id: randomUUID(),
          kind,
          recipient: to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html,
          state: 'waiting',
          attempts: 0,
          next_attempt_at: now,
          last_error: null,
          created_at: now,
          sent_at: null,
        })
        .execute();
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

    /** How many e-mails wait and how many failed, and since when the oldest has waited, for /healthz. */
    async backlog(): Promise<{ waiting: number; failed: number; oldestWaitingSince: number | null }> {
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
        oldestWaitingSince: oldest === undefined || oldest === null ? null : Number(oldest),
      };
    },
  };
}
