import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { firstShipping } from '../../src/server/db/migrations/0023-shipping-zones';
import { firstTax } from '../../src/server/db/migrations/0025-tax-settings';
import type { Order } from '../../src/shared/orders';
import { moneyRows, type OrderMoney, taxNote, taxNoteOf } from '../../src/shared/pricing';
import type { TaxSettings, VersionedSettings } from '../../src/shared/settings';
import type { TaxRate } from '../../src/shared/tax';
import { Client } from '../support/client';
import { expectError } from '../support/expect-error';
import { FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../support/fake-stripe';
import { startTestServer, type TestServer } from '../support/server';

/** The shop's tax (docs/product.md §19; docs/decisions/0041-tax-settings.md), set by the owner, charged to riders. */

let fake: FakeStripe;
let server: TestServer;
let owner: Client;

/** Germany gets a zone of its own, at the United States' price, for the VAT example. */
const shipping = {
  ...firstShipping,
  zones: [
    ...firstShipping.zones,
    {
      id: 'germany',
      name: 'Germany',
      places: [{ country: 'DE', regions: [] }],
      methods: [{ id: 'dhl', name: 'DHL', price: { kind: 'flat', cents: 2500 }, freeFromCents: null, estimate: '' }],
    },
  ],
} as const;

beforeAll(async () => {
  fake = await FakeStripe.start();
  server = await startTestServer({
    STRIPE_SECRET_KEY: fakeStripeKey,
    STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
    STRIPE_API_URL: fake.url,
  });
  owner = new Client(server.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(server.db).grant(email);
  const current = await settings();
  const saved = await owner.json('PUT', '/api/admin/settings', { ...current, shipping });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

async function settings(): Promise<VersionedSettings> {
  return (await owner.json('GET', '/api/admin/settings')).body.settings;
}

function saveTax(tax: unknown) {
  return settings().then((current) => owner.json('PUT', '/api/admin/settings', { ...current, tax }));
}

async function useTax(tax: TaxSettings): Promise<void> {
  const reply = await saveTax(tax);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

const rate = (name: string, thousandths: number, where: Partial<TaxRate> = {}): TaxRate => ({
  name,
  country: 'US',
  region: null,
  postalPrefix: null,
  rate: thousandths,
  ...where,
});

const floridaSalesTax = rate('FL sales tax', 7000, { region: 'US-FL' });
/** A US shop: prices without tax, 7% added for Florida, shipping taxed. */
const usShop: TaxSettings = { pricesIncludeTax: false, taxShipping: true, rates: [floridaSalesTax] };

/** A rider with a $299.00 saddle blanket in the cart: $25.00 shipping within the US. */
async function rider(): Promise<Client & { email: string }> {
  const client = new Client(server.url);
  const { email } = await client.signupConfirmed();
  await client.add('6');
  return Object.assign(client, { email });
}

async function quote(client: Client, query: Record<string, string>): Promise<OrderMoney> {
  const reply = await client.json('GET', `/api/checkout/quote?${new URLSearchParams(query)}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.money;
}

const rows = (money: OrderMoney) => moneyRows(money, 'en-US').map((row) => [row.label, row.amount]);

describe('tax (docs/product.md §19)', () => {
  it('a new shop has no rates and prices that include any tax: it charges as before', async () => {
    expect(firstTax).toEqual({ pricesIncludeTax: true, taxShipping: true, rates: [] });
    const fresh = await startTestServer();
    try {
      const admin = new Client(fresh.url);
      const { email } = await admin.signupConfirmed();
      await createRoles(fresh.db).grant(email);
      expect((await admin.json('GET', '/api/admin/settings')).body.settings.tax).toEqual(firstTax);
      await admin.add('6');
      const money = await quote(admin, { country: 'US', region: 'FL', postalCode: '33414' });
      expect(money).toMatchObject({ subtotalCents: 29900, shippingCents: 2500, taxCents: 0, totalCents: 32400 });
      expect(money.taxLines).toBeUndefined();
      expect(taxNoteOf(money)).toBe(taxNote);
    } finally {
      await fresh.stop();
    }
  });

  it("prices without tax: Florida pays 'FL sales tax' $22.68 on goods and shipping, New York none", async () => {
    await useTax(usShop);
    const client = await rider();
    const florida = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(florida.taxLines).toEqual([
      { name: 'FL sales tax', rate: 7000, baseCents: 32400, amountCents: 2268, included: false },
    ]);
    expect(florida.totalCents).toBe(34668);
    expect(rows(florida)).toEqual([
      ['Subtotal', '$299.00'],
      ['Shipping', '$25.00'],
      ['FL sales tax', '$22.68'],
      ['Total', '$346.68'],
    ]);
    // The state as a rider may type it: its code, its name.
    expect((await quote(client, { country: 'US', region: 'Florida', postalCode: '33414' })).totalCents).toBe(34668);
    const newYork = await quote(client, { country: 'US', region: 'NY', postalCode: '10001' });
    expect(newYork.taxLines).toBeUndefined();
    expect(newYork.totalCents).toBe(32400);
    // No tax applies and the prices do not include any: the page does not say they do.
    expect(taxNoteOf(newYork)).toBeUndefined();

    const placed = await client.placeOrder({ totalCents: 34668 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order: Order = placed.body.order;
    expect(order.money.totalCents).toBe(34668);
    expect(order.money.taxLines).toEqual(florida.taxLines);
    // The order page and the owner's read the lines it keeps.
    expect((await client.json('GET', `/api/orders/${order.number}`)).body.order.money.taxLines).toEqual(
      florida.taxLines,
    );
    const mail = await server.db.kysely
      .selectFrom('outbox')
      .select('text_body')
      .where('kind', '=', 'order-confirmation')
      .where('recipient', '=', client.email)
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('FL sales tax');
    expect(mail.text_body).toContain('$22.68');
    expect(mail.text_body).not.toContain(taxNote);

    const day = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const csv = String((await owner.raw('GET', `/api/admin/orders.csv?from=${from}&to=${day}`)).body).split('\r\n');
    expect(csv[0]).toMatch(/,"Delivery","Tax","FL sales tax"$/);
    expect(csv.find((row) => row.startsWith(`"${order.number}"`))).toMatch(/,346\.68,.*,22\.68,22\.68$/);
  });

  it("prices with tax: Germany's VAT 19% leaves the total unchanged and says what it contains", async () => {
    await useTax({ pricesIncludeTax: true, taxShipping: true, rates: [rate('VAT', 19000, { country: 'DE' })] });
    const client = await rider();
    const germany = await quote(client, { country: 'DE', region: 'BY', postalCode: '80331' });
    expect(germany.taxLines).toEqual([
      { name: 'VAT', rate: 19000, baseCents: 27227, amountCents: 5173, included: true },
    ]);
    expect(germany.totalCents).toBe(32400);
    expect(rows(germany).slice(-2)).toEqual([
      ['Total', '$324.00'],
      ['Includes VAT 19%', '$51.73'],
    ]);
    expect(taxNoteOf(germany)).toBeUndefined();
    // No rate for the United States: the prices include any tax, as the page says.
    const us = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(us).toMatchObject({ subtotalCents: 29900, shippingCents: 2500, taxCents: 0, totalCents: 32400 });
    expect(us.taxLines).toBeUndefined();
    expect(taxNoteOf(us)).toBe(taxNote);
  });

  it('a state rate and a county rate by postal code prefix both apply; of one name the most specific wins', async () => {
    await useTax({
      pricesIncludeTax: false,
      taxShipping: true,
      rates: [
        rate('FL sales tax', 6000, { region: 'US-FL' }),
        rate('County surtax', 1000, { region: 'US-FL', postalPrefix: '331' }),
        rate('County surtax', 500, { region: 'US-FL', postalPrefix: '3310' }),
      ],
    });
    const client = await rider();
    const miami = await quote(client, { country: 'US', region: 'US-FL', postalCode: '33125' });
    expect(miami.taxLines?.map((line) => [line.name, line.amountCents])).toEqual([
      ['FL sales tax', 1944],
      ['County surtax', 324],
    ]);
    expect(miami.totalCents).toBe(32400 + 1944 + 324);
    const nearer = await quote(client, { country: 'US', region: 'FL', postalCode: '33101' });
    expect(nearer.taxLines?.map((line) => [line.name, line.amountCents])).toEqual([
      ['FL sales tax', 1944],
      ['County surtax', 162],
    ]);
    const wellington = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(wellington.taxLines?.map((line) => [line.name, line.amountCents])).toEqual([['FL sales tax', 1944]]);
  });

  it("shipping taxed or not, as 'Charge tax on shipping' says", async () => {
    const client = await rider();
    await useTax({ ...usShop, taxShipping: false });
    const untaxed = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(untaxed.taxLines).toEqual([
      { name: 'FL sales tax', rate: 7000, baseCents: 29900, amountCents: 2093, included: false },
    ]);
    expect(untaxed.totalCents).toBe(29900 + 2500 + 2093);
    await useTax(usShop);
    expect((await quote(client, { country: 'US', region: 'FL', postalCode: '33414' })).totalCents).toBe(34668);
  });

  it('a rate changed while the checkout is open: the order is refused, the quote has the new figures', async () => {
    await useTax(usShop);
    const client = await rider();
    const seen = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(seen.totalCents).toBe(34668);
    await useTax({ ...usShop, rates: [{ ...floridaSalesTax, rate: 7500 }] });
    expectError(await client.placeOrder({ totalCents: seen.totalCents }), 409, 'order/cart-changed');
    const now = await quote(client, { country: 'US', region: 'FL', postalCode: '33414' });
    expect(now.taxLines?.[0]?.amountCents).toBe(2430);
    expect(now.totalCents).toBe(34830);
    const placed = await client.placeOrder({ totalCents: now.totalCents });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order.money.totalCents).toBe(34830);
  });

  it('an order collected at the yard is taxed where the yard is, whatever address the page held, and places as quoted', async () => {
    await useTax(usShop);
    const client = await rider();
    const atTheYard = {
      fullName: 'Ada Rider',
      line1: '',
      city: '',
      region: '',
      postalCode: '',
      country: 'US',
      phone: '555 0100',
    };
    // The shop is in Wellington, Florida (a new shop's address): 7% of the goods; nothing to ship, so nothing on shipping.
    const florida = [{ name: 'FL sales tax', rate: 7000, baseCents: 29900, amountCents: 2093, included: false }];
    // As the page asks once 'Collect at the yard' is chosen, before or after a delivery address was filled in.
    for (const place of [
      {},
      { region: 'US-NY', postalCode: '10001' },
      { region: 'US-FL', postalCode: '33414' },
    ] as Record<string, string>[]) {
      const money = await quote(client, { delivery: 'collection', country: 'US', ...place });
      expect(money.taxLines, JSON.stringify(place)).toEqual(florida);
      expect(money.totalCents).toBe(29900 + 2093);
    }
    const placed = await client.placeOrder({ paymentMethod: 'collection', address: atTheYard, totalCents: 31993 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order.money).toMatchObject({ totalCents: 31993, taxLines: florida, shippingCents: 0 });

    // The shop moves to New York, which has no rate here: a sale at its yard carries no Florida tax.
    const current = await settings();
    const newYork = {
      line1: '1 Park Row',
      line2: '',
      city: 'New York',
      region: 'US-NY',
      postalCode: '10038',
      country: 'US',
    };
    const moved = await owner.json('PUT', '/api/admin/settings', {
      ...current,
      shop: { ...current.shop, address: newYork },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    try {
      await client.add('6');
      const money = await quote(client, {
        delivery: 'collection',
        country: 'US',
        region: 'US-FL',
        postalCode: '33414',
      });
      expect(money).toEqual(expect.objectContaining({ subtotalCents: 29900, shippingCents: 0, totalCents: 29900 }));
      expect(money.taxLines).toBeUndefined();
      const untaxed = await client.placeOrder({ paymentMethod: 'collection', address: atTheYard, totalCents: 29900 });
      expect(untaxed.status, JSON.stringify(untaxed.body)).toBe(201);
    } finally {
      const back = await settings();
      await owner.json('PUT', '/api/admin/settings', { ...back, shop: current.shop });
    }
  });

  it('a card order asks Stripe for exactly the total with tax', async () => {
    await useTax(usShop);
    const client = await rider();
    const placed = await client.placeOrder({ paymentMethod: 'card', totalCents: 34668 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const session = fake.sessionOf(placed.body.order.number);
    expect(session?.amount_total).toBe(34668);
  });

  it('keeps every change of the tax in the history', async () => {
    await useTax({ pricesIncludeTax: true, taxShipping: true, rates: [] });
    await useTax(usShop);
    const { history } = (await owner.json('GET', '/api/admin/settings')).body;
    expect(history[0].what).toBe('Prices no longer include tax; Tax rate “FL sales tax” 7% for US US-FL added');
  });

  it.each([
    [{ country: 'XX', region: null }, 'tax.rates.0.country', 'There is no country XX.'],
    [{ country: 'us', region: null }, 'tax.rates.0.country', 'A country is a code such as US.'],
    [{ region: 'US-ZZ' }, 'tax.rates.0.region', 'United States has no region US-ZZ.'],
    [{ region: 'DE-BY' }, 'tax.rates.0.region', 'DE-BY is not a region of US.'],
    [{ rate: 100_001 }, 'tax.rates.0.rate', 'Rate (%) must be at most 100.'],
    [{ rate: 7000.5 }, 'tax.rates.0.rate', 'Rate (%) may have at most three decimals.'],
    [{ rate: -1 }, 'tax.rates.0.rate', 'Rate (%) cannot be negative.'],
    [{ name: '  ' }, 'tax.rates.0.name', 'Name is required.'],
    [
      { postalPrefix: '' },
      'tax.rates.0.postalPrefix',
      'Postal code prefix is empty: leave it out for every postal code.',
    ],
  ])('refuses a rate with %j: %s, %s', async (change, field, message) => {
    const before = await settings();
    const reply = await saveTax({ ...usShop, rates: [{ ...floridaSalesTax, ...change }] });
    expectError(reply, 400, 'settings/invalid', message);
    expect(reply.body.field).toBe(field);
    expect((await settings()).version).toBe(before.version);
  });

  it('refuses the same rate twice for one place', async () => {
    const reply = await saveTax({ ...usShop, rates: [floridaSalesTax, { ...floridaSalesTax, rate: 6000 }] });
    expectError(reply, 400, 'settings/invalid', 'A rate named “FL sales tax” is listed twice for the same place.');
    expect(reply.body.field).toBe('tax.rates.1.name');
  });
});
