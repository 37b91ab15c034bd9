import { setImmediate } from 'node:timers/promises';
import { makeZip } from 'client-zip';
import { documentFileName } from '../../shared/invoices';
import { csvAmount, csvFile, csvText } from '../books/csv';
import { shopTime } from '../books/shop-time';
import { invoicePdf } from './invoice-pdf';
import type { InvoiceRecord } from './invoice-record';

/** The name of the summary in a month's ZIP. */
export const summaryName = 'summary.csv';

/**
 * What the summary keeps of a document until the month's end, as little as a row needs (a month may hold tens of
 * thousands): its cells before the taxes and after, joined, and each tax's amount by name.
 */
interface SummaryEntry {
  /** Number, date, order, rider and net. */
  head: string;
  /** The document's taxes by name, its amounts in cents; none for most. */
  taxes: readonly (readonly [name: string, cents: number])[];
  /** Total and currency. */
  tail: string;
  currency: string;
}

const noTaxes: SummaryEntry['taxes'] = [];

function summaryEntry(record: InvoiceRecord): SummaryEntry {
  const { timeZone } = record.format;
  const { currency, taxLines = [], netCents, totalCents } = record.money;
  return {
    head: [
      csvText(record.number),
      csvText(shopTime(record.issuedAt, timeZone).slice(0, 10)),
      csvText(record.order),
      csvText(record.buyer.address.fullName),
      csvAmount(netCents, currency),
    ].join(','),
    // One line a tax name, as its money holds it.
    taxes: taxLines.length === 0 ? noTaxes : taxLines.map((line) => [line.name, line.amountCents] as const),
    tail: `${csvAmount(totalCents, currency)},${csvText(currency)}`,
    currency,
  };
}

/**
 * The summary of a month's documents for the books: one row each (number, date, order, rider, net, each tax by name,
 * total, currency; a credit note's amounts negative), a spreadsheet's CSV written as the orders' export writes it.
 */
function summaryCsv(entries: readonly SummaryEntry[]): string {
  const taxNames = [...new Set(entries.flatMap((entry) => entry.taxes.map(([name]) => name)))];
  const rows = entries.map((entry) => {
    const taxes = new Map(entry.taxes);
    const amounts = taxNames.map((name) => csvAmount(taxes.get(name) ?? 0, entry.currency));
    return [entry.head, ...amounts, entry.tail].join(',');
  });
  return csvFile(['Number', 'Date', 'Order', 'Rider', 'Net', ...taxNames, 'Total', 'Currency'], rows);
}

/**
 * A month's documents as one ZIP, streamed: each PDF is made as the reader takes the bytes before it (one PDF in
 * memory at a time, and a summary row of each), then the summary. client-zip stores each file as it is (the PDFs are
 * already compressed) and keeps only what the ZIP's central directory needs of each; a reader that goes away ends the
 * documents' read.
 */
export function monthZip(records: AsyncIterable<InvoiceRecord>): ReadableStream<Uint8Array> {
  return makeZip(monthFiles(records));
}

async function* monthFiles(records: AsyncIterable<InvoiceRecord>) {
  const summary: SummaryEntry[] = [];
  for await (const record of records) {
    // Other requests are answered between two documents: making a PDF holds the event loop, a month of them must not.
    await setImmediate();
    summary.push(summaryEntry(record));
    const input = await invoicePdf(record);
    try {
      yield { name: documentFileName(record.number), input };
    } catch {
      // The reader went away (client-zip throws its cancel in at a `yield`, and only there: an error of the read or
      // of a PDF fails the ZIP): the loop's end closes the month's read.
      return;
    }
  }
  try {
    yield { name: summaryName, input: summaryCsv(summary) };
  } catch {
    // The reader went away at the summary.
  }
}
