import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text';
import { invoicePdf } from './invoice-pdf';
import { creditNoteOf, type InvoiceRecord } from './invoice-record';

const invoice: InvoiceRecord = {
  kind: 'invoice',
  number: 'INV-2026-00042',
  issuedAt: '2026-12-31T23:30:00.000Z',
  cancels: null,
  order: 'PF-10007',
  seller: {
    name: 'Piaffe',
    legalName: 'Piaffe Saddlery LLC',
    address: '12 Arena Lane, Wellington, FL 33414',
    phone: '(561) 555-0142',
    taxId: 'DE123456789',
  },
  buyer: {
    email: 'rider@example.com',
    address: {
      fullName: 'Anna Müller',
      line1: 'Reitweg 5',
      line2: '',
      city: 'Warendorf',
      region: 'NRW',
      postalCode: '48231',
      country: 'DE',
      phone: '',
    },
  },
  lines: [
    { itemid: '1', name: 'Anky Bridle', priceCents: 30299, size: 'Cob' },
    { itemid: '4', name: 'Show Jacket', priceCents: 19900, size: null },
  ],
  money: {
    subtotalCents: 50199,
    shippingCents: 2500,
    adjustments: [{ label: 'Discount WINTER10', amountCents: -5020 }],
    taxLines: [{ name: 'VAT', rate: 19000, baseCents: 47679, amountCents: 7613, included: true }],
    totalCents: 47679,
  },
  paymentMethod: 'Card',
  format: { currency: 'EUR', locale: 'en-US', timeZone: 'America/New_York' },
};

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
});
