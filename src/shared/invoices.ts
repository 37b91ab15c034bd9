/**
 * Invoices and credit notes (docs/product.md §20), for both sides: their kinds and numbers, and the shapes the API
 * sends. An order has at most one of each; a credit note cancels its order's invoice.
 */
import './zod-config';
import { z } from 'zod';

export const documentKinds = ['invoice', 'credit-note'] as const;
export type DocumentKind = (typeof documentKinds)[number];

export const documentLabels: Record<DocumentKind, string> = { invoice: 'Invoice', 'credit-note': 'Credit note' };

const prefixes: Record<DocumentKind, string> = { invoice: 'INV', 'credit-note': 'CN' };

/** `INV-2026-00001`: the kind's prefix, the year it was issued in, its number within that year. */
export function formatDocumentNumber(kind: DocumentKind, year: number, number: number): string {
  return `${prefixes[kind]}-${year}-${String(number).padStart(5, '0')}`;
}

/** How a document number looks, of either kind (an unreadable one is a document that does not exist). */
export const documentNumberPattern = /^(?:INV|CN)-\d{4}-\d{5,9}$/;

/** A month of documents, `2026-11`, in the shop's time zone. */
export const monthSchema = z
  .string({ error: 'month must be written like 2026-11.' })
  .regex(/^\d{4}-(?:0[1-9]|1[0-2])$/, 'month must be written like 2026-11.');

export const documentsQuery = z.strictObject({ month: monthSchema.optional() });
export const monthQuery = z.strictObject({ month: monthSchema });

/** One invoice or credit note, as the back office lists it. */
export const documentSummarySchema = z.object({
  number: z.string(),
  kind: z.enum(documentKinds),
  /** ISO 8601. */
  issuedAt: z.string(),
  /** The order it is for (PF-...). */
  order: z.string(),
  /** The rider's name on the order's address. */
  rider: z.string(),
  /** Cents; a credit note's is negative. */
  totalCents: z.number().int(),
  /** A credit note's: the invoice it cancels. */
  cancels: z.string().nullable(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

export const documentMonthSchema = z.object({
  /** The month shown (`2026-11`): the one asked for, or the shop's current month. */
  month: z.string(),
  /** Every month that has a document, newest first. */
  months: z.array(z.string()),
  documents: z.array(documentSummarySchema),
});
export type DocumentMonth = z.infer<typeof documentMonthSchema>;

/** Where documents download from (api.ts's endpoints name these paths; the pages link to them). */
export const documentPaths = {
  orderInvoice: '/api/orders/:number/invoice',
  orderCreditNote: '/api/orders/:number/credit-note',
  /** Any document of a rider's order by its number: a return's credit note among them. */
  orderDocument: '/api/orders/:number/documents/:document',
  adminInvoice: '/api/admin/invoices/:number',
  adminInvoicesZip: '/api/admin/invoices.zip',
} as const;

/** A month (`2026-11`) as the owner reads it: `November 2026`. */
export function monthLabel(month: string, locale: string): string {
  return new Date(`${month}-15T12:00:00Z`).toLocaleDateString(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The file name a document downloads as. */
export function documentFileName(number: string): string {
  return `${number}.pdf`;
}
