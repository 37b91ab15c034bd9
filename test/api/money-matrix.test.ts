import { beforeAll, describe, expect, it } from 'vitest';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { formatCents } from '../../src/shared/money';
import type { Order } from '../../src/shared/orders';
import { type OrderMoney, taxNote } from '../../src/shared/pricing';
import type { TaxSettings } from '../../src/shared/settings';
import { cardShopWithOwner } from '../support/card-shop';
import { address, type Client, confirmedRider } from '../support/client';
import { createDiscount } from '../support/discounts';
import type { FakeStripe } from '../support/fake-stripe';
import { pdfText } from '../support/pdf-text';
import type { TestServer } from '../support/server';

/**
 * An order's money, one value (docs/product.md §8, §19; docs/decisions/0053-an-orders-money-as-one-value.md): for every
 * way an order can be priced (prices with or without tax, a rate that applies or none, no code or each kind of code,
 * shipped or collected, by transfer or card), the quote's total, the order's, the confirmation e-mail's, the invoice
 * PDF's, the CSV export's and Stripe's session's agree to the cent, and 'Prices include any tax.' is said exactly where
 * §19 says: prices that include tax, and no tax line.
 */
let fake: FakeStripe;
let server: TestServer;
let owner: Client;
const codes: Record<string, string> = {};
/** A rider for each way, signed up once: each places one order of each tax's four. */
const riders: Client[] = [];

const shop = cardShopWithOwner();
beforeAll(async () => {
  ({ fake, server, owner } = shop);
  codes.percent = (await createDiscount(owner, { gives: { kind: 'percent', percent: 10 } })).code;
  codes.amount = (await createDiscount(owner, { gives: { kind: 'amount', amountCents: 2000 } })).code;
  codes['free-shipping'] = (await createDiscount(owner, { gives: { kind: 'free-shipping' } })).code;
  for (let i = 0; i < ways.length; i++) {
    const rider = await confirmedRider(server.url);
    riders.push(rider);
  }
});

const discounts = ['none', 'percent', 'amount', 'free-shipping'] as const;
const deliveries = ['shipping', 'collection'] as const;
const payments = ['bank-transfer', 'card'] as const;
const ways = discounts.flatMap((discount) =>
  deliveries.flatMap((delivery) => payments.map((payment) => ({ discount, delivery, payment }))),
);

/** The shop's tax: its prices with or without it, and a rate of 7% for Florida (where the rider and the yard are), or for New York only. */
function taxOf(pricesIncludeTax: boolean, rateApplies: boolean): TaxSettings {
  const region = rateApplies ? 'US-FL' : 'US-NY';
  return {
    pricesIncludeTax,
    taxShipping: true,
    rates: [{ name: 'State tax', country: 'US', region, postalPrefix: null, rate: 7000 }],
  };
}

const usd = newShopSettings.format;
const dollars = (cents: number) => formatCents(cents, usd);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The order's row of the owner's CSV export: its cells, as a spreadsheet splits them. */
async function csvRowOf(number: string): Promise<string[]> {
  const csv = String((await owner.raw('GET', `/api/admin/orders.csv?from=${day(-1)}&to=${day(1)}`)).body);
  const header = csv.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '';
  const row = csv.split('\r\n').find((line) => line.startsWith(`"${number}"`)) ?? '';
  const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1] ?? '');
  const names = cells(header).map((cell) => cell.replace(/^"|"$/g, ''));
  return names.map((name, i) => `${name}=${cells(row)[i] ?? ''}`);
}

/** One order priced one way, followed from the quote to its invoice; what each of them says of its money. */
async function follow(rider: Client, { discount, delivery, payment }: (typeof ways)[number]) {
  // A bridle ($302.99): below the free shipping of $500.00, so that shipping is charged when it is not collected.
  await rider.add('1');
  const code = discount === 'none' ? undefined : codes[discount];
  const query = new URLSearchParams({
    delivery,
    country: address.country,
    region: address.region,
    postalCode: address.postalCode,
    ...(code ? { discountCode: code } : {}),
  });
  const quote = await rider.json('GET', `/api/checkout/quote?${query}`);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const quoted: OrderMoney = quote.body.money;
  const placed = await rider.placeOrder({
    paymentMethod: payment,
    delivery,
    ...(code ? { discountCode: code } : {}),
    totalCents: quoted.totalCents,
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order: Order = placed.body.order;
  const session = fake.sessionOf(order.number);
  if (payment === 'card') {
    if (!session) throw new Error(`no Checkout Session for ${order.number}`);
    await fake.deliver(fake.pay(session.id));
  } else {
    const paid = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, { to: 'paid', from: 'placed' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  }
  const mail = await server.db.kysely
    .selectFrom('outbox')
    .select('text_body')
    .where('kind', '=', 'order-confirmation')
    .where('subject', '=', `Your order ${order.number}`)
    .executeTakeFirstOrThrow();
  const invoice = await pdfText((await rider.raw('GET', `/api/orders/${order.number}/invoice`)).bytes);
  return { quoted, order, session, mail: mail.text_body, invoice, csv: await csvRowOf(order.number) };
}

describe("an order's money, one value, printed the same everywhere", () => {
  for (const pricesIncludeTax of [true, false]) {
    for (const rateApplies of [true, false]) {
      it(`prices ${pricesIncludeTax ? 'with' : 'without'} tax, ${rateApplies ? 'a rate that applies' : 'no rate for the place'}: 16 orders agree to the cent`, {
        timeout: 60_000,
      }, async () => {
        const { settings } = (await owner.json('GET', '/api/admin/settings')).body;
        const saved = await owner.json('PUT', '/api/admin/settings', {
          ...settings,
          tax: taxOf(pricesIncludeTax, rateApplies),
        });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        const followed = await Promise.all(ways.map((way, i) => follow(riders[i] as Client, way)));
        for (const [i, { quoted, order, session, mail, invoice, csv }] of followed.entries()) {
          const way = JSON.stringify(ways[i]);
          const { money } = order;
          // The quote is the order's money, the pricing's own value.
          expect(money, way).toEqual(quoted);
          expect(money.currency).toBe('USD');
          expect(money.taxCents, way).toBe((money.taxLines ?? []).reduce((sum, line) => sum + line.amountCents, 0));
          expect(money.netCents, way).toBe(money.totalCents - money.taxCents);
          // A rate that applies gives a line; none gives none (and prices that exclude tax are said so).
          expect((money.taxLines ?? []).length, way).toBe(rateApplies ? 1 : 0);
          expect(money.pricesExcludeTax === true, way).toBe(!pricesIncludeTax);
          const total = dollars(money.totalCents);
          expect(mail, way).toMatch(new RegExp(`^Total:\\s+${total.replace(/[$.]/g, '\\$&')}$`, 'm'));
          expect(invoice, way).toMatch(new RegExp(`Total\\s*${total.replace(/[$.]/g, '\\$&')}`));
          expect(csv, way).toContain(`Total=${(money.totalCents / 100).toFixed(2)}`);
          expect(csv, way).toContain(`Shipping=${(money.shippingCents / 100).toFixed(2)}`);
          if (rateApplies) expect(csv, way).toContain(`State tax=${(money.taxCents / 100).toFixed(2)}`);
          if (ways[i]?.payment === 'card') expect(session?.amount_total, way).toBe(money.totalCents);
          // 'Prices include any tax.' where prices include tax and no line says what they contain; nowhere else.
          const noted = pricesIncludeTax && !rateApplies;
          for (const text of [mail, invoice]) expect(text.includes(taxNote), way).toBe(noted);
        }
      });
    }
  }
});
