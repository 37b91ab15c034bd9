import type { InvoiceRecord } from '../../src/server/invoices/invoice-record';

/** An invoice as it is kept at issue: two lines, a discount, shipping and VAT included, in euros. */
export const anInvoice: InvoiceRecord = {
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
