import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { anInvoice } from '../../../test/support/invoice-record';
import { moneyOf } from '../pricing/pricing';
import { invoicePdf } from './invoice-pdf';
import type { InvoiceRecord } from './invoice-record';
import { monthZip } from './invoice-zip';

async function* each(records: readonly InvoiceRecord[]) {
  yield* records;
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("a month's ZIP", () => {
  const vat = anInvoice.money.taxLines?.[0];
  if (!vat) throw new Error('the invoice of the fixture has its VAT');
  // Their money as the pricing makes it: the sums from the parts.
  const { taxCents: _tax, netCents: _net, ...parts } = anInvoice.money;
  const twoTaxes: InvoiceRecord = {
    ...anInvoice,
    number: 'INV-2026-00043',
    money: moneyOf({
      ...parts,
      taxLines: [
        { ...vat, amountCents: 1500 },
        { ...vat, name: 'Eco tax', amountCents: 250 },
      ],
    }),
  };
  const untaxed: InvoiceRecord = {
    ...anInvoice,
    number: 'INV-2026-00044',
    money: moneyOf({ ...parts, taxLines: [] }),
  };

  it('holds each PDF as made and a summary with a column for each tax by name, 0.00 where a document has none', async () => {
    const files = unzipSync(await bytesOf(monthZip(each([anInvoice, twoTaxes, untaxed]))));
    expect(Object.keys(files)).toEqual([
      'INV-2026-00042.pdf',
      'INV-2026-00043.pdf',
      'INV-2026-00044.pdf',
      'summary.csv',
    ]);
    expect(Buffer.compare(files['INV-2026-00043.pdf'] as Uint8Array, await invoicePdf(twoTaxes))).toBe(0);
    const summary = new TextDecoder().decode(files['summary.csv']).replace(/^\uFEFF/, '');
    expect(summary.trimEnd().split('\r\n')).toEqual([
      '"Number","Date","Order","Rider","Net","VAT","Eco tax","Total","Currency"',
      '"INV-2026-00042","2026-12-31","PF-10007","Anna Müller",400.66,76.13,0.00,476.79,"EUR"',
      '"INV-2026-00043","2026-12-31","PF-10007","Anna Müller",459.29,15.00,2.50,476.79,"EUR"',
      '"INV-2026-00044","2026-12-31","PF-10007","Anna Müller",476.79,0.00,0.00,476.79,"EUR"',
    ]);
  });

  it('stops reading the documents when its reader goes away', async () => {
    let read = 0;
    let ended = false;
    async function* month() {
      try {
        for (let n = 1; n <= 50; n++) {
          read += 1;
          yield { ...anInvoice, number: `INV-2026-${String(n).padStart(5, '0')}` };
        }
      } finally {
        ended = true;
      }
    }
    const reader = monthZip(month()).getReader();
    await reader.read();
    await reader.cancel();
    expect(ended).toBe(true);
    expect(read).toBeLessThan(5);
  });

  it('fails, rather than ends as a smaller ZIP, when the read of the documents fails', async () => {
    async function* month() {
      yield anInvoice;
      throw new Error('the database went away');
    }
    await expect(bytesOf(monthZip(month()))).rejects.toThrow('the database went away');
  });
});
