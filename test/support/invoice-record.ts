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
    currency: 'EUR',
    subtotalCents: 50199,
    shippingCents: 2500,
    adjustments: [{ label: 'Discount WINTER10', amountCents: -5020 }],
    taxLines: [{ name: 'VAT', rate: 19000, baseCents: 47679, amountCents: 7613, included: true }],
    taxCents: 7613,
    netCents: 40066,
    totalCents: 47679,
  },
  paymentMethod: 'Card',
  format: { locale: 'en-US', timeZone: 'America/New_York' },
};

/**
 * The same invoice in every script an invoice must print (docs/product.md §20): a Czech seller, a Polish rider with a
 * Cyrillic line and a Greek town, and products named in Cyrillic, Greek, Hebrew, Arabic (with the lam-alef ligature),
 * Hebrew inside a Latin name, Chinese and an emoji (which no font of the PDF draws) before a Latin word; in złoty.
 */
export const anInvoiceInEveryScript: InvoiceRecord = {
  ...anInvoice,
  seller: {
    name: 'Piaffe',
    legalName: 'Sedlářství Kůň s.r.o.',
    address: 'Náměstí Míru 12, 120 00 Praha 2',
    phone: '+420 777 123 456',
    taxId: 'CZ12345678',
  },
  buyer: {
    email: 'lukasz@example.com',
    address: {
      fullName: 'Łukasz Żółć',
      line1: 'ul. Źródlana 7',
      line2: 'Тверская улица, дом 5',
      city: 'Θεσσαλονίκη',
      region: 'Μακεδονία',
      postalCode: '546 21',
      country: 'GR',
      phone: '',
    },
  },
  lines: [
    { itemid: '1', name: 'Уздечка Премиум', priceCents: 30299, size: 'Cob' },
    { itemid: '2', name: 'Σέλα Ιππασίας', priceCents: 19900, size: null },
    { itemid: '3', name: 'אוכף רכיבה', priceCents: 10000, size: null },
    { itemid: '4', name: 'سرج السلام', priceCents: 5000, size: null },
    { itemid: '5', name: 'Saddle Pad דנה כהן Edition', priceCents: 4000, size: null },
    { itemid: '6', name: '馬具 Premium', priceCents: 3000, size: null },
    { itemid: '7', name: 'Helmet 🐴 Deluxe', priceCents: 2000, size: null },
  ],
  money: {
    currency: 'PLN',
    subtotalCents: 74199,
    shippingCents: 2500,
    adjustments: [],
    taxLines: [{ name: 'VAT', rate: 23000, baseCents: 76699, amountCents: 14342, included: true }],
    taxCents: 14342,
    netCents: 62357,
    totalCents: 76699,
  },
  format: { locale: 'pl-PL', timeZone: 'Europe/Warsaw' },
};
