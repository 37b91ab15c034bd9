/**
 * The back office's shapes (docs/product.md §11), for both sides: the filters of the order list, an owner's move,
 * the CSV export's date range, and the outbox as the owner sees it (never an e-mail's body).
 */
import './zod-config';
import { z } from 'zod';
import { limits } from './limits';
import { mailKinds, outboxStates } from './mail';
import { noteSchema, oneKey, orderKeys, orderStatuses } from './orders';
import { pageFields, pageNumber } from './paging';
import { noControlCharacters } from './text';

export const adminOrdersQuery = oneKey(
  orderKeys.extend({
    status: z.enum(orderStatuses, { error: 'status must be one of placed, paid, shipped, cancelled.' }).optional(),
    /** An order number or part of an e-mail address. */
    q: z
      .string()
      .max(limits.emailMax, `q must be at most ${limits.emailMax} characters.`)
      .regex(noControlCharacters, 'q must be on one line, without control characters.')
      .optional(),
  }),
);

/** An owner's move: where to, from the status the owner saw (a different one now is refused), and a note. */
export const orderMoveSchema = z.strictObject({
  to: z.enum(orderStatuses, { error: 'to must be one of paid, shipped, cancelled.' }),
  from: z.enum(orderStatuses, { error: 'from must be the status the order had.' }),
  note: noteSchema.default(''),
});
export type OrderMove = z.infer<typeof orderMoveSchema>;

/** A calendar day, `2026-11-24`, that exists. */
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written like 2026-11-24.')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, 'That date does not exist.');

/** The longest range one export covers. */
export const maxExportDays = 366;

/** The days of the orders to export, both included, in the shop's time zone. */
export const exportQuery = z
  .strictObject({ from: day, to: day })
  .refine(({ from, to }) => from <= to, { message: 'from must not be after to.', path: ['to'] })
  .refine(({ from, to }) => (Date.parse(to) - Date.parse(from)) / 86_400_000 < maxExportDays, {
    message: `An export covers at most ${maxExportDays} days.`,
    path: ['to'],
  });

export const outboxQuery = z.strictObject({
  page: pageNumber,
  state: z.enum(outboxStates, { error: 'state must be one of waiting, sent, failed.' }).optional(),
});

const kinds = Object.keys(mailKinds) as [keyof typeof mailKinds, ...Array<keyof typeof mailKinds>];

/** An e-mail of the outbox as the owner sees it: never its body. */
export const outboxEmailSchema = z.object({
  id: z.string(),
  kind: z.enum(kinds),
  recipient: z.string(),
  subject: z.string(),
  state: z.enum(outboxStates),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** When a waiting e-mail is tried next. */
  nextAttemptAt: z.string().nullable(),
  /** Whether the owner may send it again (a failed e-mail that holds no reset link). */
  retryable: z.boolean(),
});
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;

export const outboxPageSchema = z.object({
  emails: z.array(outboxEmailSchema),
  ...pageFields,
  /** How many e-mails are in each state. */
  counts: z.object({ waiting: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});
export type OutboxPage = z.infer<typeof outboxPageSchema>;

/** A webhook event from Stripe that did not match an order (docs/product.md §14): kept, and shown to the owner. */
export const paymentProblemSchema = z.object({
  /** Stripe's id of the event (evt_...). */
  id: z.string(),
  type: z.string(),
  /** ISO 8601. */
  receivedAt: z.string(),
  /** The order it names, as named; null when it names none. */
  orderRef: z.string().nullable(),
  amountCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  problem: z.string(),
});
export type PaymentProblem = z.infer<typeof paymentProblemSchema>;

export const paymentProblemPageSchema = z.object({
  problems: z.array(paymentProblemSchema),
  ...pageFields,
});
export type PaymentProblemPage = z.infer<typeof paymentProblemPageSchema>;
