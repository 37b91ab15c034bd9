import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { currentMonth, nextDocumentNumber } from '../../src/server/invoices/invoicing';
import { shopAddressText } from '../../src/shared/address';
import { formatCents } from '../../src/shared/money';
import type { Order } from '../../src/shared/orders';
import { taxNote } from '../../src/shared/pricing';
import type { ShopSettings } from '../../src/shared/settings';
import { cardShopWithOwner } from '../support/card-shop';
import { address, Client, confirmedRider } from '../support/client';
import { expectError } from '../support/expect-error';
import type { FakeStripe } from '../support/fake-stripe';
import { pdfText } from '../support/pdf-text';
import type { TestServer } from '../support/server';

const shop = cardShopWithOwner();
let fake: FakeStripe;
let server: TestServer;
let owner: Client;
beforeAll(() => {
  ({ fake, server, owner } = shop);
});

const month = () => currentMonth(newShopSettings.format.timeZone);
const year = () => month().slice(0, 4);

const rider = () => confirmedRider(server.url);

const markPaid = (number: string, by = owner) =>
  by.json('POST', `/api/admin/orders/${number}/moves`, { to: 'paid', from: 'placed' });

/** A rider's bank-transfer order (of a bridle and a saddle, unless other items are named), marked paid by the owner. */
async function paidOrder(...itemids: string[]): Promise<{ client: Client; order: Order }> {
  const buyer = await rider();
  const placed = await buyer.order(...(itemids.length > 0 ? itemids : ['1', '2']));
  const reply = await markPaid(placed.number);
  expect(reply.status).toBe(200);
  return { client: buyer, order: reply.body.order };
}

/** An order's line as its documents state it: `Anky Bridle, size Full $302.99` (negative: `-$302.99`). */
function lineText(order: Order, index: number, sign = ''): string {
  const line = order.lines[index];
  if (!line) throw new Error(`no line ${index}`);
  return `${line.name}, size ${line.size} ${sign}${formatCents(line.priceCents, newShopSettings.format)}`;
}

/** The sequence number of a document number (`INV-2026-00042`: 42). */
const sequenceOf = (number: string) => Number(number.slice(-5));

async function documentRows(orderNumber: string) {
  return server.db.kysely
    .selectFrom('invoice')
    .select(['number', 'kind'])
    .where('order_number', '=', Number(orderNumber.slice(3)))
    .orderBy('number')
    .execute();
}

describe('an invoice, issued as the order becomes paid', () => {
  it("'Mark paid' issues the invoice in the same move: its number on the order, its PDF the rider's", async () => {
    const { client, order } = await paidOrder();
    expect(order.invoice).toMatch(new RegExp(`^INV-${year()}-\\d{5}$`));
    expect((await client.json('GET', `/api/orders/${order.number}`)).body.order.invoice).toBe(order.invoice);
    expect((await owner.json('GET', `/api/admin/orders/${order.number}`)).body.order.invoice).toBe(order.invoice);

    const pdf = await client.raw('GET', `/api/orders/${order.number}/invoice`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${order.invoice}.pdf"`);
    const text = await pdfText(pdf.bytes);
    for (const expected of [
      newShopSettings.shop.legalName,
      shopAddressText(newShopSettings.shop.address, 'en-US'),
      `Invoice ${order.invoice}`,
      order.number,
      'Bank transfer',
      'Ada Rider',
      lineText(order, 0),
      lineText(order, 1),
      `Subtotal ${formatCents(order.money.subtotalCents, newShopSettings.format)}`,
      'Shipping Free',
      `Total ${formatCents(order.money.totalCents, newShopSettings.format)}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("the paid e-mail sends the rider to the order's page for the invoice: a link a signed-out browser can follow", async () => {
    const { order } = await paidOrder();
    const mail = await server.db.kysely
      .selectFrom('outbox')
      .select(['text_body', 'html_body'])
      .where('kind', '=', 'order-paid')
      .where('subject', 'like', `%${order.number}`)
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(
      `Your invoice ${order.invoice} is ready: your order's page offers it, 'Download invoice (PDF)'.`,
    );
    expect(mail.text_body).toContain(`See your order: http://localhost:0/orders/${order.number}`);
    // The API's PDF answers a signed-out browser with 401 JSON; the order's page sends it to sign in first.
    expect(mail.text_body).not.toContain('/api/');
    expect(mail.html_body).not.toContain('/api/');
  });

  it("prints a rider's name and address in Polish and Cyrillic exactly as the rider wrote them", async () => {
    const buyer = await rider();
    await buyer.add('1');
    const written = {
      ...address,
      fullName: 'Łukasz Żółć',
      line1: 'ul. Źródlana 7, m. 12',
      line2: 'Тверская улица, дом 5',
      city: 'Веллингтон',
    };
    const placed = await buyer.placeOrder({ address: written });
    expect(placed.status).toBe(201);
    const number = placed.body.order.number as string;
    expect((await markPaid(number)).status).toBe(200);
    const text = await pdfText((await buyer.raw('GET', `/api/orders/${number}/invoice`)).bytes);
    for (const expected of [written.fullName, written.line1, written.line2, `${written.city}, `]) {
      expect(text).toContain(expected);
    }
  });

  it("answers 404 for another rider's invoice, as for their order, 404 before it is paid, 401 to a visitor", async () => {
    const { order } = await paidOrder();
    const other = await rider();
    expectError(await other.raw('GET', `/api/orders/${order.number}/invoice`), 404, 'invoice/not-found');
    expectError(await other.json('GET', `/api/orders/${order.number}`), 404, 'order/not-found');
    const unpaid = await other.order('3');
    expectError(await other.raw('GET', `/api/orders/${unpaid.number}/invoice`), 404, 'invoice/not-found');
    expectError(await other.raw('GET', `/api/orders/${order.number}/credit-note`), 404, 'invoice/not-found');
    expectError(
      await new Client(server.url).raw('GET', `/api/orders/${order.number}/invoice`),
      401,
      'auth/unauthenticated',
    );
  });

  it("Stripe's webhook issues it; the event delivered again, or ten times at once, issues one invoice", async () => {
    const buyer = await rider();
    await buyer.add('1');
    const placed = (await buyer.placeOrder({ paymentMethod: 'card' })).body.order as Order;
    const session = fake.sessionOf(placed.number);
    if (!session) throw new Error('no session');
    const event = fake.pay(session.id);
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => fake.deliver(event)));
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(204));
    expect((await fake.deliver(event)).status).toBe(204);
    const rows = await documentRows(placed.number);
    expect(rows).toEqual([{ number: expect.stringMatching(/^INV-/), kind: 'invoice' }]);
    const paid = (await buyer.json('GET', `/api/orders/${placed.number}`)).body.order as Order;
    expect(paid.invoice).toBe(rows[0]?.number);
    expect(await pdfText((await buyer.raw('GET', `/api/orders/${placed.number}/invoice`)).bytes)).toContain('Card');
  });

  it('a change to the catalogue after the invoice leaves its PDF as it was, byte for byte', async () => {
    // A product no other test of this file buys.
    const { client, order } = await paidOrder('6');
    const before = (await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes;
    const { product } = (await owner.json('GET', '/api/admin/products/6')).body;
    const renamed = await owner.json('PUT', '/api/admin/products/6', {
      name: `${product.name} Deluxe`,
      details: product.details,
      priceCents: 45000,
      shown: product.shown,
      sizes: product.sizes.map((s: { size: string; stock: number }) => ({ ...s, stockShown: s.stock })),
      version: product.version,
    });
    expect(renamed.status).toBe(200);
    const after = (await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes;
    expect(Buffer.compare(before, after)).toBe(0);
    expect(await pdfText(after)).not.toContain('Deluxe');
  });

  it("states the seller as the shop's settings were when it was issued: a later save changes the next one only", async () => {
    const { client, order } = await paidOrder('6');
    const before = (await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes;
    const saveShop = async (shop: Partial<ShopSettings['shop']>) => {
      const { settings } = (await owner.json('GET', '/api/admin/settings')).body;
      const saved = await owner.json('PUT', '/api/admin/settings', {
        ...settings,
        shop: { ...settings.shop, ...shop },
      });
      expect(saved.status).toBe(200);
    };
    const address = {
      line1: '1 Reitweg',
      line2: '',
      city: 'Münster',
      region: 'DE-NW',
      postalCode: '48143',
      country: 'DE',
    };
    const moved = { legalName: 'Piaffe Tack GmbH', address, taxId: 'DE123456789' };
    await saveShop(moved);
    try {
      const after = (await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes;
      expect(Buffer.compare(before, after)).toBe(0);
      const next = await paidOrder('6');
      const text = await pdfText((await next.client.raw('GET', `/api/orders/${next.order.number}/invoice`)).bytes);
      for (const expected of ['Piaffe Tack GmbH', '1 Reitweg, Münster, NW 48143, Germany', 'DE123456789']) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain(newShopSettings.shop.legalName);
    } finally {
      await saveShop(newShopSettings.shop);
    }
  });
});

describe("the invoice's tax note, as the order's page and e-mail say it (docs/product.md §19)", () => {
  it("prices without tax and no rate for the address: neither the invoice nor its credit note says 'Prices include any tax.'", async () => {
    const { settings } = (await owner.json('GET', '/api/admin/settings')).body;
    const florida = { name: 'FL sales tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 7000 };
    const usShop = { pricesIncludeTax: false, taxShipping: true, rates: [florida] };
    expect((await owner.json('PUT', '/api/admin/settings', { ...settings, tax: usShop })).status).toBe(200);
    try {
      const buyer = await rider();
      await buyer.add('6');
      // New York: no rate applies, so the order has no tax line, and the prices include none.
      const placed = await buyer.placeOrder({ address: { ...address, region: 'US-NY', postalCode: '10001' } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const order: Order = placed.body.order;
      expect(order.money.taxLines).toBeUndefined();
      expect((await markPaid(order.number)).status).toBe(200);
      const invoice = await pdfText((await buyer.raw('GET', `/api/orders/${order.number}/invoice`)).bytes);
      expect(invoice).toContain('Total');
      expect(invoice).not.toContain(taxNote);
      const cancelled = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
        to: 'cancelled',
        from: 'paid',
        note: 'Out of stock',
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      const credit = await pdfText((await buyer.raw('GET', `/api/orders/${order.number}/credit-note`)).bytes);
      expect(credit).toContain('Credit note');
      expect(credit).not.toContain(taxNote);
    } finally {
      const now = (await owner.json('GET', '/api/admin/settings')).body.settings;
      await owner.json('PUT', '/api/admin/settings', { ...now, tax: settings.tax });
    }
  });

  it("prices that include tax and no rate: the invoice says 'Prices include any tax.', as the order's page does", async () => {
    const { client, order } = await paidOrder('6');
    const invoice = await pdfText((await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes);
    expect(invoice).toContain(taxNote);
  });
});

describe('a credit note, issued as an invoiced order is cancelled', () => {
  it('names the invoice it cancels and states its lines negative; the order carries both numbers', async () => {
    const { client, order } = await paidOrder();
    const cancelled = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
      to: 'cancelled',
      from: 'paid',
      note: 'Out of stock',
    });
    expect(cancelled.status).toBe(200);
    const { creditNote, invoice } = cancelled.body.order as Order;
    expect(invoice).toBe(order.invoice);
    expect(creditNote).toMatch(new RegExp(`^CN-${year()}-\\d{5}$`));
    expect((await client.json('GET', `/api/orders/${order.number}`)).body.order.creditNote).toBe(creditNote);

    const pdf = await client.raw('GET', `/api/orders/${order.number}/credit-note`);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(`Credit note ${creditNote}`);
    expect(text).toContain(`Cancels invoice ${order.invoice}`);
    expect(text).toContain(lineText(order, 0, '-'));
    expect(text).toContain(lineText(order, 1, '-'));
    expect(text).toContain(`Total -${formatCents(order.money.totalCents, newShopSettings.format)}`);
    // The invoice is still there, as issued.
    expect(await pdfText((await client.raw('GET', `/api/orders/${order.number}/invoice`)).bytes)).toContain(
      lineText(order, 0),
    );
  });

  it('a paid card order cancelled by the owner is refunded through Stripe and gets its credit note', async () => {
    const buyer = await rider();
    await buyer.add('4');
    const placed = (await buyer.placeOrder({ paymentMethod: 'card' })).body.order as Order;
    const session = fake.sessionOf(placed.number);
    if (!session) throw new Error('no session');
    expect((await fake.deliver(fake.pay(session.id))).status).toBe(204);
    const cancelled = await owner.json('POST', `/api/admin/orders/${placed.number}/moves`, {
      to: 'cancelled',
      from: 'paid',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.order.card.refundId).toEqual(expect.any(String));
    expect(await documentRows(placed.number)).toEqual([
      { number: cancelled.body.order.creditNote, kind: 'credit-note' },
      { number: cancelled.body.order.invoice, kind: 'invoice' },
    ]);
  });

  it('an order cancelled before it was paid has neither', async () => {
    const buyer = await rider();
    const placed = await buyer.order('5');
    const cancelled = await buyer.json('POST', `/api/orders/${placed.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.order).not.toHaveProperty('invoice');
    expect(cancelled.body.order).not.toHaveProperty('creditNote');
    expect(await documentRows(placed.number)).toEqual([]);
  });
});

describe('numbers', () => {
  it('numbers invoices of orders paid at once without a gap, while units that took a number roll back', async () => {
    const riders = await Promise.all(Array.from({ length: 4 }, () => rider()));
    const orders: Order[] = [];
    for (let i = 0; i < 12; i++) orders.push(await (riders[i % riders.length] as Client).order('8'));
    const last = (await paidOrder()).order.invoice as string;
    class RolledBack extends Error {}
    const rollbacks = orders.map(() =>
      server.db
        .run(async (uow) => {
          await nextDocumentNumber(uow, 'invoice', Date.now(), newShopSettings.format.timeZone);
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        }),
    );
    const [replies] = await Promise.all([Promise.all(orders.map((order) => markPaid(order.number))), ...rollbacks]);
    expect(replies.map((reply) => reply.status)).toEqual(orders.map(() => 200));
    const numbers = replies.map((reply) => sequenceOf(reply.body.order.invoice)).sort((a, b) => a - b);
    expect(numbers).toEqual(orders.map((_, i) => sequenceOf(last) + 1 + i));
    expect(sequenceOf((await paidOrder()).order.invoice as string)).toBe(sequenceOf(last) + orders.length + 1);
  }, 60_000);

  it("start again from 1 each year, the shop's year: New Year's Eve in New York is still the old year in UTC's new one", async () => {
    const at = (iso: string) =>
      server.db.run((uow) => nextDocumentNumber(uow, 'invoice', Date.parse(iso), 'America/New_York'));
    expect(await at('2041-06-01T12:00:00Z')).toEqual({ number: 'INV-2041-00001', month: '2041-06' });
    expect(await at('2042-01-01T04:30:00Z')).toEqual({ number: 'INV-2041-00002', month: '2041-12' });
    expect(await at('2042-01-01T05:00:00Z')).toEqual({ number: 'INV-2042-00001', month: '2042-01' });
    const credit = await server.db.run((uow) =>
      nextDocumentNumber(uow, 'credit-note', Date.parse('2042-02-01T12:00:00Z'), 'America/New_York'),
    );
    expect(credit).toEqual({ number: 'CN-2042-00001', month: '2042-02' });
  });
});

describe("the owner's invoices", () => {
  it("lists the month's invoices and credit notes, each downloadable, and the month as a ZIP of its PDFs and a CSV", async () => {
    const { order } = await paidOrder();
    const cancelled = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
      to: 'cancelled',
      from: 'paid',
    });
    const creditNote = cancelled.body.order.creditNote as string;
    const listed = await owner.json('GET', '/api/admin/invoices');
    expect(listed.status).toBe(200);
    expect(listed.body.month).toBe(month());
    expect(listed.body.months[0]).toBe(month());
    const documents = listed.body.documents as Array<{ number: string; kind: string; totalCents: number }>;
    expect(documents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ number: order.invoice, kind: 'invoice', order: order.number, rider: 'Ada Rider' }),
        expect.objectContaining({
          number: creditNote,
          kind: 'credit-note',
          cancels: order.invoice,
          totalCents: -order.money.totalCents,
        }),
      ]),
    );

    const one = await owner.raw('GET', `/api/admin/invoices/${creditNote}`);
    expect(one.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfText(one.bytes)).toContain(`Credit note ${creditNote}`);
    expectError(await owner.raw('GET', `/api/admin/invoices/INV-1999-00001`), 404, 'invoice/not-found');
    expectError(await owner.raw('GET', `/api/admin/invoices/nonsense`), 404, 'invoice/not-found');

    const zip = await owner.raw('GET', `/api/admin/invoices.zip?month=${month()}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    // Streamed as it is made: its length is known to nobody in advance.
    expect(zip.headers.get('transfer-encoding')).toBe('chunked');
    expect(zip.headers.get('content-length')).toBeNull();
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="invoices-${month()}.zip"`);
    const files = unzipSync(new Uint8Array(zip.bytes));
    expect(Object.keys(files).sort()).toEqual([...documents.map((d) => `${d.number}.pdf`), 'summary.csv'].sort());
    expect(await pdfText(files[`${order.invoice}.pdf`] as Uint8Array)).toContain(`Invoice ${order.invoice}`);
    const csv = new TextDecoder().decode(files['summary.csv']).replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Number","Date","Order","Rider","Net","Total","Currency"');
    expect(lines).toHaveLength(documents.length + 1);
    const total = (order.money.totalCents / 100).toFixed(2);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: newShopSettings.format.timeZone }).format(new Date());
    expect(lines).toContain(`"${order.invoice}","${day}","${order.number}","Ada Rider",${total},${total},"USD"`);
    expect(lines).toContain(`"${creditNote}","${day}","${order.number}","Ada Rider",-${total},-${total},"USD"`);
  });

  it('a month without documents is an empty ZIP but for its summary; a month not written like 2026-11 is refused', async () => {
    const zip = await owner.raw('GET', '/api/admin/invoices.zip?month=1999-01');
    expect(Object.keys(unzipSync(new Uint8Array(zip.bytes)))).toEqual(['summary.csv']);
    expectError(await owner.json('GET', '/api/admin/invoices?month=2026-13'), 400, 'request/invalid-query');
    expectError(await owner.raw('GET', '/api/admin/invoices.zip'), 400, 'request/invalid-query');
  });

  it('answers every invoice route of the back office 401 to a visitor and 403 to a rider', async () => {
    const { client, order } = await paidOrder();
    for (const path of [
      '/api/admin/invoices',
      `/api/admin/invoices.zip?month=${month()}`,
      `/api/admin/invoices/${order.invoice}`,
    ]) {
      expectError(await new Client(server.url).raw('GET', path), 401, 'auth/unauthenticated');
      expectError(await client.raw('GET', path), 403, 'auth/forbidden');
    }
  });
});
