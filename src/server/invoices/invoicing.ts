import { type DocumentKind, type DocumentSummary, formatDocumentNumber } from '../../shared/invoices';
import type { Order, OrderStatus } from '../../shared/orders';
import type { ShopFormat } from '../../shared/settings';
import { shopTime } from '../books/shop-time';
import type { Db, UnitOfWork } from '../db/database';
import { yearlySequence } from '../db/schema';
import { creditNoteOf, type InvoiceRecord, invoiceOf, readRecord } from './invoice-record';
import type { LegalDetails } from './legal-details';

/** The numbers of an order's documents, as the order carries them (left out while it has none). */
export interface OrderDocuments {
  invoice?: string;
  creditNote?: string;
}

const sequenceNames = { invoice: 'invoice', 'credit-note': 'credit_note' } as const;

/**
 * The next number of `kind` for a document issued at `at`, in the year of the shop's time zone: from that year's
 * counter row, bumped in the unit that issues the document (docs/decisions/0038-invoices.md).
 */
export async function nextDocumentNumber(
  uow: UnitOfWork,
  kind: DocumentKind,
  at: number,
  timeZone: string,
): Promise<{ number: string; month: string }> {
  const month = shopTime(new Date(at).toISOString(), timeZone).slice(0, 7);
  const year = Number(month.slice(0, 4));
  const number = await uow.next(yearlySequence(sequenceNames[kind], year));
  return { number: formatDocumentNumber(kind, year, number), month };
}

async function store(
  uow: UnitOfWork,
  record: InvoiceRecord,
  orderNumber: number,
  at: number,
  month: string,
  returnNumber: string | null = null,
) {
  await uow.trx
    .insertInto('invoice')
    .values({
      number: record.number,
      kind: record.kind,
      order_number: orderNumber,
      issued_at: at,
      month,
      record: JSON.stringify(record),
      return_number: returnNumber,
    })
    .execute();
  // Its tax lines, beside it, for the owner's tax report (docs/decisions/0066-reports-at-size.md).
  const { country, region } = record.buyer.address;
  const taxLines = record.money.taxLines ?? [];
  if (taxLines.length > 0)
    await uow.trx
      .insertInto('document_tax')
      .values(
        taxLines.map((line, index) => ({
          document: record.number,
          position: index + 1,
          issued_at: at,
          name: line.name,
          country,
          region,
          amount_cents: line.amountCents,
        })),
      )
      .execute();
}

/** Who issues a document and how its amounts and days read: the shop's settings as the move's unit reads them. */
export interface Issuer {
  seller: LegalDetails;
  format: ShopFormat;
}

/**
 * The documents a move issues, in its unit of work (docs/product.md §20): an invoice when the order becomes paid, and
 * a credit note when an invoiced order is cancelled. A move happens once (order-moves.ts), so each is issued once;
 * the unique index on (order, kind) is the last guard. The order given is the order as just moved, at `at` (epoch ms);
 * its year is the shop's, in the shop's time zone.
 */
export async function issueDocuments(
  uow: UnitOfWork,
  orderNumber: number,
  to: OrderStatus,
  order: Order,
  issuer: () => Promise<Issuer>,
  at: number,
): Promise<OrderDocuments> {
  const issuedAt = new Date(at).toISOString();
  if (to === 'paid') {
    const { seller, format } = await issuer();
    const { number, month } = await nextDocumentNumber(uow, 'invoice', at, format.timeZone);
    // Its amounts in the order's own currency (its money's), written and dated as the shop does now.
    const recordFormat = { locale: format.locale, timeZone: format.timeZone };
    await store(uow, invoiceOf(order, { number, issuedAt, seller, format: recordFormat }), orderNumber, at, month);
    return { invoice: number };
  }
  if (to === 'cancelled' && order.invoice !== undefined) {
    const invoice = await readDocument(uow.trx, order.invoice);
    if (!invoice) throw new Error(`The invoice ${order.invoice} of order ${order.number} vanished.`);
    const { seller, format } = await issuer();
    const { number, month } = await nextDocumentNumber(uow, 'credit-note', at, format.timeZone);
    await store(uow, creditNoteOf(invoice, { number, issuedAt, seller }), orderNumber, at, month);
    return { creditNote: number };
  }
  return {};
}

/**
 * The credit note of a refund of part of an invoiced order (a return's, docs/product.md §25), in the refund's unit of
 * work: the invoice's buyer and payment, exactly the lines and money that came back (made negative), naming the
 * invoice. None when the order has no invoice. One per return: the unique index on its return is the last guard.
 */
export async function issueRefundNote(
  uow: UnitOfWork,
  orderNumber: number,
  returnNumber: string,
  part: Pick<InvoiceRecord, 'lines' | 'money'>,
  issuer: () => Promise<Issuer>,
  at: number,
): Promise<string | undefined> {
  const row = await uow.trx
    .selectFrom('invoice')
    .select('record')
    .where('order_number', '=', orderNumber)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  if (!row) return undefined;
  const invoice = readRecord(row.record);
  const { seller, format } = await issuer();
  const { number, month } = await nextDocumentNumber(uow, 'credit-note', at, format.timeZone);
  const issuedAt = new Date(at).toISOString();
  const note = creditNoteOf({ ...invoice, ...part }, { number, issuedAt, seller });
  await store(uow, note, orderNumber, at, month, returnNumber);
  return number;
}

/** The numbers of an order's documents: its invoice, and the credit note that cancelled it (a return's are its own). */
export async function documentsOf(executor: Db['kysely'], orderNumber: number): Promise<OrderDocuments> {
  const rows = await executor
    .selectFrom('invoice')
    .select(['number', 'kind'])
    .where('order_number', '=', orderNumber)
    .where('return_number', 'is', null)
    .execute();
  const of = (kind: DocumentKind) => rows.find((row) => row.kind === kind)?.number;
  const invoice = of('invoice');
  const creditNote = of('credit-note');
  return { ...(invoice ? { invoice } : {}), ...(creditNote ? { creditNote } : {}) };
}

/** A document's record by its number, if the shop issued it. */
export async function readDocument(executor: Db['kysely'], number: string): Promise<InvoiceRecord | undefined> {
  const row = await executor.selectFrom('invoice').select('record').where('number', '=', number).executeTakeFirst();
  return row ? readRecord(row.record) : undefined;
}

function summaryOf(record: InvoiceRecord): DocumentSummary {
  return {
    number: record.number,
    kind: record.kind,
    issuedAt: record.issuedAt,
    order: record.order,
    rider: record.buyer.address.fullName,
    totalCents: record.money.totalCents,
    cancels: record.cancels,
  };
}

/** How many records a month's ZIP reads from the database at a time. */
const batchSize = 50;

/** The shop's invoices and credit notes, as the back office reads them. */
export function createInvoices(db: Db) {
  return {
    /** The record of one of a rider's orders' documents (`uid` null: any order's, for an owner). */
    async ofOrder(orderNumber: number, kind: DocumentKind, uid: string | null): Promise<InvoiceRecord | undefined> {
      let query = db.kysely
        .selectFrom('invoice')
        .innerJoin('shop_order', 'shop_order.number', 'invoice.order_number')
        .select('invoice.record')
        .where('invoice.order_number', '=', orderNumber)
        .where('invoice.kind', '=', kind)
        .where('invoice.return_number', 'is', null);
      if (uid !== null) query = query.where('shop_order.uid', '=', uid);
      const row = await query.executeTakeFirst();
      return row ? readRecord(row.record) : undefined;
    },

    /** One document by its number. */
    byNumber: (number: string) => readDocument(db.kysely, number),

    /** One of the documents of a rider's order by its number (a return's credit note among them). */
    async ofOrderByNumber(orderNumber: number, number: string, uid: string): Promise<InvoiceRecord | undefined> {
      const row = await db.kysely
        .selectFrom('invoice')
        .innerJoin('shop_order', 'shop_order.number', 'invoice.order_number')
        .select('invoice.record')
        .where('invoice.order_number', '=', orderNumber)
        .where('invoice.number', '=', number)
        .where('shop_order.uid', '=', uid)
        .executeTakeFirst();
      return row ? readRecord(row.record) : undefined;
    },

    /** The month's documents in the order issued, and every month that has any, newest first. */
    async month(month: string): Promise<{ months: string[]; documents: DocumentSummary[] }> {
      const months = await db.kysely
        .selectFrom('invoice')
        .select('month')
        .distinct()
        .orderBy('month', 'desc')
        .execute();
      const rows = await db.kysely
        .selectFrom('invoice')
        .select('record')
        .where('month', '=', month)
        .orderBy('issued_at')
        .orderBy('number')
        .execute();
      return {
        months: months.map((row) => row.month),
        documents: rows.map((row) => summaryOf(readRecord(row.record))),
      };
    },

    /** The month's records in the order issued, a batch at a time: a busy month is never read whole. */
    async *records(month: string): AsyncGenerator<InvoiceRecord> {
      let after: { issuedAt: number; number: string } | undefined;
      for (;;) {
        let query = db.kysely
          .selectFrom('invoice')
          .select(['record', 'issued_at', 'number'])
          .where('month', '=', month)
          .orderBy('issued_at')
          .orderBy('number')
          .limit(batchSize);
        if (after) {
          const { issuedAt, number } = after;
          query = query.where((eb) =>
            eb.or([
              eb('issued_at', '>', issuedAt),
              eb.and([eb('issued_at', '=', issuedAt), eb('number', '>', number)]),
            ]),
          );
        }
        const rows = await query.execute();
        for (const row of rows) yield readRecord(row.record);
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { issuedAt: Number(last.issued_at), number: last.number };
      }
    },
  };
}

export type Invoices = ReturnType<typeof createInvoices>;

/** The shop's month now (`2026-11`), in its time zone. */
export function currentMonth(timeZone: string, now = Date.now()): string {
  return shopTime(new Date(now).toISOString(), timeZone).slice(0, 7);
}
