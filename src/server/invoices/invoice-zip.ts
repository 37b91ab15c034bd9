import { setImmediate } from 'node:timers/promises';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { documentFileName } from '../../shared/invoices';
import { sumCents } from '../../shared/money';
import { csvAmount, csvFile, csvText, shopTime } from '../admin/csv';
import { invoicePdf } from './invoice-pdf';
import type { InvoiceRecord } from './invoice-record';

/** The name of the summary in a month's ZIP. */
export const summaryName = 'summary.csv';

/** What the summary keeps of a document: its row's cells but the taxes, and its taxes by name. */
interface SummaryEntry {
  cells: string[];
  taxes: Map<string, number>;
  total: string;
  currency: string;
}

function summaryEntry(record: InvoiceRecord): SummaryEntry {
  const { currency, timeZone } = record.format;
  const taxLines = record.money.taxLines ?? [];
  const taxes = new Map<string, number>();
  for (const line of taxLines) taxes.set(line.name, (taxes.get(line.name) ?? 0) + line.amountCents);
  const netCents = record.money.totalCents - sumCents(taxLines.map((line) => line.amountCents));
  return {
    cells: [
      csvText(record.number),
      csvText(shopTime(record.issuedAt, timeZone).slice(0, 10)),
      csvText(record.order),
      csvText(record.buyer.address.fullName),
      csvAmount(netCents, currency),
    ],
    taxes,
    total: csvAmount(record.money.totalCents, currency),
    currency,
  };
}

/**
 * The summary of a month's documents for the books: one row each (number, date, order, rider, net, each tax by name,
 * total, currency; a credit note's amounts negative), a spreadsheet's CSV written as the orders' export writes it.
 */
function summaryCsv(entries: readonly SummaryEntry[]): string {
  const taxNames = [...new Set(entries.flatMap((entry) => [...entry.taxes.keys()]))];
  const rows = entries.map((entry) =>
    [
      ...entry.cells,
      ...taxNames.map((name) => csvAmount(entry.taxes.get(name) ?? 0, entry.currency)),
      entry.total,
      csvText(entry.currency),
    ].join(','),
  );
  return csvFile(['Number', 'Date', 'Order', 'Rider', 'Net', ...taxNames, 'Total', 'Currency'], rows);
}

/**
 * A month's documents as one ZIP, streamed: each PDF is made and sent on as the reader takes the bytes (one PDF in
 * memory at a time, and a summary row of each), then the summary. PDFs are stored as they are (already compressed), the CSV deflated.
 */
export function monthZip(records: AsyncIterable<InvoiceRecord>): ReadableStream<Uint8Array> {
  const iterator = records[Symbol.asyncIterator]();
  const summary: SummaryEntry[] = [];
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) controller.error(error);
        else {
          controller.enqueue(chunk);
          if (final) controller.close();
        }
      });
    },
    async pull() {
      // Other requests are answered between two documents: making a PDF holds the event loop, a month of them must not.
      await setImmediate();
      const next = await iterator.next();
      if (next.done) {
        const file = new ZipDeflate(summaryName, { level: 6 });
        zip.add(file);
        file.push(new TextEncoder().encode(summaryCsv(summary)), true);
        zip.end();
        return;
      }
      const record = next.value;
      summary.push(summaryEntry(record));
      const file = new ZipPassThrough(documentFileName(record.number));
      zip.add(file);
      file.push(await invoicePdf(record), true);
    },
    async cancel() {
      await iterator.return?.();
      zip.terminate();
    },
  });
}
