/**
 * Returns, exchanges and part refunds, for both sides (docs/product.md §25, docs/decisions/0064-returns.md): a return
 * request's states and who moves it, the reasons a rider gives, and the shapes the API takes and sends.
 */
import './zod-config';
import { z } from 'zod';
import { limits } from './limits';
import { noteSchema } from './orders';

export const returnStates = ['requested', 'received', 'refunded', 'exchanged', 'refused'] as const;
export type ReturnState = (typeof returnStates)[number];

export const returnStateLabels: Record<ReturnState, string> = {
  requested: 'Requested',
  received: 'Received',
  refunded: 'Refunded',
  exchanged: 'Exchanged',
  refused: 'Refused',
};

export const returnReasons = ['too-small', 'too-large', 'not-as-described', 'damaged', 'changed-mind'] as const;
export type ReturnReason = (typeof returnReasons)[number];

export const returnReasonLabels: Record<ReturnReason, string> = {
  'too-small': 'Too small',
  'too-large': 'Too large',
  'not-as-described': 'Not as described',
  damaged: 'Damaged',
  'changed-mind': 'Changed my mind',
};

/** What a rider asks for a line: the money back, or another size of the same product. */
export const returnOutcomes = ['refund', 'exchange'] as const;
export type ReturnOutcome = (typeof returnOutcomes)[number];

export const returnOutcomeLabels: Record<ReturnOutcome, string> = {
  refund: 'Refund',
  exchange: 'Exchange for another size',
};

/** Return numbers read `RET-2026-00001`: gapless per year of the shop's time zone. */
export function formatReturnNumber(year: number, n: number): string {
  return `RET-${year}-${String(n).padStart(5, '0')}`;
}

export const returnNumberPattern = /^RET-\d{4}-\d{5,}$/;

/** 'Return items': the order's lines (by their position, 1, 2, ...), each with a reason and what the rider wants. */
export const returnRequestSchema = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          line: z.number({ error: 'line must be the number of one of the order’s lines.' }).int().min(1).max(10_000),
          reason: z.enum(returnReasons, { error: 'Choose a reason for each item.' }),
          outcome: z.enum(returnOutcomes, { error: 'Choose a refund or an exchange for each item.' }),
          /** The size wanted instead, for an exchange. */
          size: z.string().trim().min(1).max(40).optional(),
        }),
        { error: 'lines must be a list of the items to return.' },
      )
      .min(1, 'Choose at least one item to return.')
      .max(limits.cartMaxRows),
  })
  .superRefine(({ lines }, context) => {
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.line)) {
        context.addIssue({ code: 'custom', path: ['lines', index, 'line'], message: 'Each item is returned once.' });
      }
      seen.add(line.line);
      if (line.outcome === 'exchange' && line.size === undefined) {
        context.addIssue({ code: 'custom', path: ['lines', index, 'size'], message: 'Choose the size you want.' });
      }
      if (line.outcome === 'refund' && line.size !== undefined) {
        context.addIssue({ code: 'custom', path: ['lines', index, 'size'], message: 'A refund takes no size.' });
      }
    });
  });
export type ReturnRequest = z.infer<typeof returnRequestSchema>;

/** 'Mark received': each line of the return, and whether it goes back on the shelf ('Damaged, do not restock'). */
export const returnReceiptSchema = z.strictObject({
  lines: z
    .array(z.strictObject({ line: z.number().int().min(1).max(10_000), restock: z.boolean() }), {
      error: 'lines must list every item of the return.',
    })
    .min(1)
    .max(limits.cartMaxRows),
});
export type ReturnReceipt = z.infer<typeof returnReceiptSchema>;

/** 'Refund' (and the exchange's new order): shipping comes back only when the owner ticks 'Refund shipping'. */
export const returnSettleSchema = z.strictObject({ refundShipping: z.boolean().default(false) });

/** 'Refuse', with the reason the rider is e-mailed. */
export const returnRefusalSchema = z.strictObject({
  reason: noteSchema.min(1, 'Say why the return is refused: the rider is told.'),
});

export const returnLineSchema = z.object({
  /** The order line's position. */
  line: z.number().int(),
  itemid: z.string(),
  name: z.string(),
  size: z.string().nullable(),
  /** What the line cost, before its share of the discount. */
  priceCents: z.number().int(),
  reason: z.enum(returnReasons),
  outcome: z.enum(returnOutcomes),
  exchangeSize: z.string().nullable(),
  /** ISO 8601, once the owner marked it received. */
  receivedAt: z.string().nullable(),
  /** Whether it went back on the shelf; null until received. */
  restocked: z.boolean().nullable(),
});
export type ReturnLine = z.infer<typeof returnLineSchema>;

export const returnSchema = z.object({
  number: z.string(),
  /** The order's number (PF-...). */
  order: z.string(),
  state: z.enum(returnStates),
  /** ISO 8601. */
  requestedAt: z.string(),
  receivedAt: z.string().nullable(),
  settledAt: z.string().nullable(),
  refusedReason: z.string().nullable(),
  lines: z.array(returnLineSchema),
  /** What its refund paid back, once made: its amount, the shipping among it, its credit note. */
  refund: z
    .object({ amountCents: z.number().int(), shippingCents: z.number().int(), creditNote: z.string().nullable() })
    .nullable(),
  /** What the lines to refund would pay back now (shipping left out), in the order's currency; 0 for an exchange. */
  dueCents: z.number().int(),
  /** The order's shipping (with its tax), when it can still be refunded with this return. */
  shippingDueCents: z.number().int(),
  currency: z.string(),
  /** The card provider's words, when it refused the last refund asked. */
  refundProblem: z.string().nullable(),
  /** The order that sends the sizes exchanged (PF-...), once made. */
  exchangeOrder: z.string().nullable(),
  /** The e-mail address the order was placed with. */
  email: z.string(),
});
export type Return = z.infer<typeof returnSchema>;

/** A line of an order as 'Return items' offers it: whether it can be returned, and the sizes in stock to exchange for. */
export const returnableLineSchema = z.object({
  line: z.number().int(),
  name: z.string(),
  size: z.string().nullable(),
  priceCents: z.number().int(),
  returnable: z.boolean(),
  exchangeSizes: z.array(z.string()),
});

/** An order's returns, and what may still be asked: until when (ISO 8601; null when returns are off or past). */
export const orderReturnsSchema = z.object({
  returns: z.array(returnSchema),
  until: z.string().nullable(),
  lines: z.array(returnableLineSchema),
  /** Where to send the parcel, as the shop writes an address. */
  address: z.string(),
});
export type OrderReturns = z.infer<typeof orderReturnsSchema>;

/** The owner's list: a state (every state when left out), newest first, a page at a time before a return's number. */
export const returnsQuery = z.strictObject({
  state: z
    .enum(returnStates, { error: 'state must be one of requested, received, refunded, exchanged, refused.' })
    .optional(),
  before: z.string().regex(returnNumberPattern, 'before must be a return’s number.').optional(),
});

export const returnPageSchema = z.object({
  returns: z.array(returnSchema),
  /** The number to ask `before` for the next page; null on the last. */
  older: z.string().nullable(),
});
export type ReturnPage = z.infer<typeof returnPageSchema>;
