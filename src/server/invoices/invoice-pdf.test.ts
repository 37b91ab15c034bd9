import { constants, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { anInvoiceInEveryScript, anInvoice as invoice } from '../../../test/support/invoice-record';
import { pdfText } from '../../../test/support/pdf-text';
import type { Address } from '../../shared/address';
import { formatCents } from '../../shared/money';
import { invoicePdf } from './invoice-pdf';
import { creditNoteOf, type InvoiceRecord } from './invoice-record';

/** The invoice in every script, its rider's address changed as given (and its lines, if given). */
function inEveryScript(address: Partial<Address>, lines = anInvoiceInEveryScript.lines): InvoiceRecord {
  const record = anInvoiceInEveryScript;
  return { ...record, buyer: { ...record.buyer, address: { ...record.buyer.address, ...address } }, lines };
}

/** The maps of glyphs to text (ToUnicode) of a PDF's fonts, as pdfkit writes them: compressed streams. */
function toUnicodeMaps(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const maps: string[] = [];
  for (const match of text.matchAll(/(?<!end)stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const stream = inflateSync(Buffer.from(text.slice(start, text.indexOf('endstream', start)), 'latin1'), {
      finishFlush: constants.Z_SYNC_FLUSH,
    }).toString('latin1');
    if (stream.includes('beginbfrange')) maps.push(stream);
  }
  return maps.join('\n');
}

describe('an invoice as a PDF', () => {
  it('states the seller, the numbers, the date in the shop time zone, the buyer, each line, discount, shipping, tax and total', async () => {
    const text = await pdfText(await invoicePdf(invoice));
    for (const expected of [
      'Piaffe Saddlery LLC',
      '12 Arena Lane, Wellington, FL 33414',
      'Tax id: DE123456789',
      'Invoice INV-2026-00042',
      // 23:30 UTC on New Year's Eve is still the 31st in New York.
      'Dec 31, 2026',
      'PF-10007',
      'Card',
      'Anna Müller',
      'Reitweg 5',
      'Germany',
      'rider@example.com',
      'Anky Bridle, size Cob €302.99',
      'Show Jacket €199.00',
      'Subtotal €501.99',
      'Discount WINTER10 -€50.20',
      'Shipping €25.00',
      'Total €476.79',
      'Includes VAT 19% €76.13',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('makes the same bytes from the same record, whenever it is made', async () => {
    const first = await invoicePdf(invoice);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(Buffer.compare(first, await invoicePdf(invoice))).toBe(0);
  });

  it("maps each PDF's glyphs to its own text, whatever PDFs the process made before it", async () => {
    // One glyph of Noto Naskh Arabic is both the ligature of 'لا' in 'السلام' and the presentation form U+FEFC typed
    // as such. (Readers read U+FEFC as 'لا' too: what tells the two PDFs apart is their map of glyphs to text.)
    const typed = inEveryScript({}, [{ itemid: '4', name: 'سرج السﻼم', priceCents: 5000, size: null }]);
    for (let round = 0; round < 2; round++) {
      expect(toUnicodeMaps(await invoicePdf(typed))).toContain('<fefc>');
      const ligature = toUnicodeMaps(await invoicePdf(anInvoiceInEveryScript));
      expect(ligature).not.toContain('<fefc>');
      // Lam and alef, in the order drawn (see ScriptPen.end).
      expect(ligature).toContain('<0627 0644>');
    }
  });

  it('a credit note names the invoice it cancels and states every amount negative', async () => {
    const note = creditNoteOf(invoice, {
      number: 'CN-2027-00001',
      issuedAt: '2027-01-02T12:00:00.000Z',
      seller: invoice.seller,
    });
    const text = await pdfText(await invoicePdf(note));
    for (const expected of [
      'Credit note CN-2027-00001',
      'Cancels invoice INV-2026-00042',
      'Jan 2, 2027',
      'Anky Bridle, size Cob -€302.99',
      'Subtotal -€501.99',
      'Discount WINTER10 €50.20',
      'Shipping -€25.00',
      'Total -€476.79',
      'Includes VAT 19% -€76.13',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("prints every script as written: the text read back from the PDF is the seller's, the rider's and each product's", async () => {
    const record = anInvoiceInEveryScript;
    const text = await pdfText(await invoicePdf(record));
    // A reader reads a no-break space (pl-PL's '302,99 zł') as a space.
    const amount = (cents: number) =>
      formatCents(cents, { currency: record.money.currency, locale: record.format.locale }).replace(/\s/g, ' ');
    for (const expected of [
      // Czech
      'Sedlářství Kůň s.r.o.',
      'Piaffe · Náměstí Míru 12, 120 00 Praha 2',
      'Tax id: CZ12345678',
      // Polish
      'Łukasz Żółć',
      'ul. Źródlana 7',
      '1 sty 2027',
      // Cyrillic, Greek
      'Тверская улица, дом 5',
      'Θεσσαλονίκη, Μακεδονία 546 21',
      'Greece',
      `Уздечка Премиум, size Cob ${amount(30299)}`,
      `Σέλα Ιππασίας ${amount(19900)}`,
      // Hebrew and Arabic read in their logical order, the Arabic letters joined and its lam-alef one glyph.
      `אוכף רכיבה ${amount(10000)}`,
      `سرج السلام ${amount(5000)}`,
      `Saddle Pad דנה כהן Edition ${amount(4000)}`,
      // No font of the PDF draws Chinese or an emoji: a visible replacement each, and the rest of the line intact.
      `\uFFFD\uFFFD Premium ${amount(3000)}`,
      `Helmet \uFFFD Deluxe ${amount(2000)}`,
      `Total ${amount(76699)}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('lays out right-to-left text by the bidirectional algorithm: wrapped in logical order, numbers left to right, brackets mirrored', async () => {
    const saddle = 'אוכף רכיבה מקצועי לדרסאז׳ עם ריפוד עור כפול ותפרים מחוזקים במיוחד לתחרויות בינלאומיות ברמה הגבוהה';
    const text = await pdfText(
      await invoicePdf(
        inEveryScript({ fullName: 'דנה (כהן)', line1: 'شارع السلام ١٢، حي جبل', line2: 'רחוב הרצל 12' }, [
          { itemid: '3', name: saddle, priceCents: 10000, size: null },
        ]),
      ),
    );
    const lines = text.split('\n');
    // Arabic-Indic digits in an Arabic line: one run of one font, which a reader reads back in its logical order; ش
    // and س, ج and ح each their own glyph (see script-pen.ts on Noto's Arabic builds).
    expect(lines).toContain('شارع السلام ١٢، حي جبل');
    // Too long for its column: its first words on the first line, each line in its logical order.
    const first = lines.findIndex((line) => line.startsWith('אוכף רכיבה'));
    expect(first).toBeGreaterThan(-1);
    expect(`${lines[first]} ${lines[first + 1]}`).toBe(saddle);
    // A reader reads a line's runs from left to right, each in its logical order: the number, in another font than
    // the Hebrew, is printed to the Hebrew's left, and read first.
    expect(lines).toContain('12 רחוב הרצל');
    // So are brackets, which right to left are drawn as their mirror images: the one on the left opens.
    expect(lines).toContain('(כהן) דנה');
  });

  it('prints a letter typed apart from its accent (NFD) composed where no one font has both', async () => {
    // The caron (U+030C) is in another of Noto Sans's files than 'r' (Latin Extended, Latin); 'ř' is in the first.
    const text = await pdfText(await invoicePdf(inEveryScript({ fullName: 'Antonín Dvor\u030Cák' })));
    expect(text).toContain('Antonín Dvořák'.normalize('NFC'));
  });
});
