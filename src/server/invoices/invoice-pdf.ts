import PDFDocument from 'pdfkit';
import { addressLines } from '../../shared/address';
import { formatDate } from '../../shared/dates';
import { documentLabels } from '../../shared/invoices';
import { formatCents } from '../../shared/money';
import { moneyRows, taxNoteOf } from '../../shared/pricing';
import { itemWithSize } from '../../shared/sizes';
import { regionName } from '../places/places';
import type { InvoiceRecord } from './invoice-record';
import { ScriptPen } from './script-pen';

const margin = 56;
const ink = '#2b2118';
const quiet = '#7a6a5c';

/**
 * An invoice or credit note as a PDF (pdfkit; its text selectable and searchable), made from its record alone: the
 * same record makes the same bytes, whenever it is made (its dates are the record's). Its text is written in any
 * script, in fonts it embeds (script-pen.ts, ADR 0048).
 */
export function invoicePdf(record: InvoiceRecord): Promise<Buffer> {
  const issued = new Date(record.issuedAt);
  const label = documentLabels[record.kind];
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: {
      Title: `${label} ${record.number}`,
      Author: record.seller.legalName,
      Subject: `${label} ${record.number} for order ${record.order}`,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * margin;
  const amountWidth = 110;
  const money = { currency: record.money.currency, locale: record.format.locale };
  const cents = (value: number) => formatCents(value, money);
  const date = formatDate(record.issuedAt, record.format.locale, record.format.timeZone);

  const pen = new ScriptPen(doc);
  const { seller } = record;
  doc.fillColor(ink);
  pen.style('bold', 20).text(seller.legalName);
  pen.style('regular', 10);
  doc.fillColor(quiet);
  pen.text(seller.name === seller.legalName ? seller.address : `${seller.name} · ${seller.address}`);
  pen.text(seller.phone);
  if (seller.taxId) pen.text(`Tax id: ${seller.taxId}`);
  doc.moveDown(1.5);

  doc.fillColor(ink);
  pen.style('bold', 16).text(`${label} ${record.number}`);
  pen.style('regular', 10);
  doc.moveDown(0.5);
  const facts: Array<[string, string]> = [
    [`${label} number`, record.number],
    ['Date', date],
    ...(record.cancels ? [['Cancels invoice', record.cancels] as [string, string]] : []),
    ['Order', record.order],
    ['Payment', record.paymentMethod],
  ];
  for (const [name, value] of facts) {
    const y = doc.y;
    doc.fillColor(quiet);
    pen.text(name, margin, y, { width: 120 });
    doc.fillColor(ink);
    pen.text(value, margin + 120, y, { width: width - 120 });
  }
  doc.moveDown(1);

  pen.style('bold').text('Billed to', margin);
  pen.style('regular');
  for (const line of addressLines(record.buyer.address, regionName)) pen.text(line);
  pen.text(record.buyer.email);
  doc.moveDown(1.5);

  /** One row of the table: the text on the left, the amount on the right. */
  function row(text: string, amount: string, bold = false) {
    const y = doc.y;
    pen.style(bold ? 'bold' : 'regular');
    pen.text(text, margin, y, { width: width - amountWidth - 8 });
    const below = doc.y;
    pen.text(amount, margin + width - amountWidth, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(below, doc.y) + 4;
  }
  function rule() {
    doc
      .moveTo(margin, doc.y)
      .lineTo(margin + width, doc.y)
      .strokeColor(quiet)
      .lineWidth(0.5)
      .stroke();
    doc.y += 6;
  }

  row('Item', 'Amount', true);
  rule();
  for (const line of record.lines) row(itemWithSize(line.name, line.size), cents(line.priceCents));
  rule();
  for (const entry of moneyRows(record.money, record.format.locale)) row(entry.label, entry.amount, entry.isTotal);
  doc.moveDown(1);
  pen.style('regular');
  doc.fillColor(quiet);
  const note = taxNoteOf(record.money);
  if (note) pen.text(note, margin);
  if (record.kind === 'credit-note') {
    pen.text(`This credit note cancels invoice ${record.cancels} in full.`, margin);
  }
  pen.end();
  return done;
}
