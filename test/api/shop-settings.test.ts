import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { firstSettings } from '../../src/server/db/migrations/0015-shop-settings';
import { firstShipping } from '../../src/server/db/migrations/0023-shipping-zones';
import { firstTax } from '../../src/server/db/migrations/0025-tax-settings';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { type ShopAddress, shopAddressText } from '../../src/shared/address';
import type { PublicShop, ShopSettings, VersionedSettings } from '../../src/shared/settings';
import { Client, confirmedRider } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let owner: Client;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = new Client(server.url);
  ownerEmail = (await owner.signupConfirmed()).email;
  await createRoles(server.db).grant(ownerEmail);
});
afterAll(async () => {
  await server?.stop();
});

const rider = () => confirmedRider(server.url);

async function current(): Promise<{ settings: VersionedSettings; history: { by: string; what: string }[] }> {
  const reply = await owner.json('GET', '/api/admin/settings');
  expect(reply.status).toBe(200);
  return reply.body;
}

/** The owner's form filled from the settings as they are now, with `change` made to it, saved. */
async function save(change: (form: ShopSettings) => ShopSettings, client = owner) {
  const { settings } = await current();
  return client.json('PUT', '/api/admin/settings', { ...change(settings), version: settings.version });
}

/** The account stream's events that this test reads. */
type AccountEvent = { type: 'ready' } | ({ type: 'shop' } & PublicShop);

const withShop = (shop: Partial<ShopSettings['shop']>) => (form: ShopSettings) => ({
  ...form,
  shop: { ...form.shop, ...shop },
});

const withAddress = (address: Partial<ShopAddress>) => (form: ShopSettings) =>
  withShop({ address: { ...form.shop.address, ...address } })(form);

describe("the shop's settings", () => {
  it('a new shop has the values that were fixed in code: name, address, phone, bank, payment methods', async () => {
    // Today's values, spelled out: what the shop showed and charged before its owner could change them.
    const todays = {
      shop: {
        name: 'Piaffe',
        legalName: 'Piaffe Saddlery LLC',
        address: '12 Arena Lane, Wellington, FL 33414',
        phone: '(561) 555-0142',
        email: 'shop@piaffe.example',
        taxId: '',
      },
      bankTransfer: {
        payWithinDays: 7,
        accountName: 'Piaffe Saddlery LLC',
        bankName: 'Wellington Community Bank',
        routingNumber: '000000000',
        accountNumber: '0000 1234 5678',
      },
      paymentMethods: ['bank-transfer', 'collection', 'card'],
    };
    expect(firstSettings).toEqual(todays);
    const fresh = await startTestServer();
    try {
      const admin = new Client(fresh.url);
      const { email } = await admin.signupConfirmed();
      await createRoles(fresh.db).grant(email);
      const reply = await admin.json('GET', '/api/admin/settings');
      // Shipping joined the document with migration 0023 (test/api/shipping-zones.test.ts spells it out), tax with
      // 0025 (test/api/tax.test.ts); 0034 read the address in its parts, which print as before; 'Cancel unpaid
      // orders' came with 0035, on (test/api/unpaid-transfers.test.ts); 0036 wrote down the currency, locale and time
      // zone the code had.
      const address = {
        line1: '12 Arena Lane',
        line2: '',
        city: 'Wellington',
        region: 'US-FL',
        postalCode: '33414',
        country: 'US',
      };
      expect(shopAddressText(address, 'en-US')).toBe(todays.shop.address);
      const shopNow = { ...todays.shop, address };
      const bankTransfer = { ...todays.bankTransfer, cancelUnpaid: true };
      const format = { currency: 'USD', locale: 'en-US', timeZone: 'America/New_York' };
      // Members only, as every shop was before it could open to visitors (docs/product.md §23).
      const access = { openTo: 'members' };
      // Returns within 30 days, to the shop's own address, and reports' low stock at 2 came with 0041 (§25, §26).
      const returns = { days: 30, address: null };
      const reports = { lowStock: 2 };
      expect(reply.body).toEqual({
        settings: {
          ...todays,
          shop: shopNow,
          access,
          format,
          bankTransfer,
          shipping: firstShipping,
          tax: firstTax,
          returns,
          reports,
          version: 1,
        },
        history: [],
      });
      expect(newShopSettings).toEqual({
        ...todays,
        shop: shopNow,
        access,
        format,
        bankTransfer,
        shipping: firstShipping,
        tax: firstTax,
        returns,
        reports,
      });
      const shop = await new Client(fresh.url).json('GET', '/api/shop');
      expect(shop.body).toEqual({ shop: shopNow, access, format, bankTransfer });
      // Card only with Stripe's keys, as before.
      expect((await admin.json('GET', '/api/payment-methods')).body).toEqual({
        methods: ['bank-transfer', 'collection'],
      });
    } finally {
      await fresh.stop();
    }
  });

  it('are for owners only: a rider is refused, a visitor must log in', async () => {
    const form = { ...newShopSettings, version: 1 };
    const someone = await rider();
    expectError(await someone.json('GET', '/api/admin/settings'), 403, 'auth/forbidden');
    expectError(await someone.json('PUT', '/api/admin/settings', form), 403, 'auth/forbidden');
    const visitor = new Client(server.url);
    expectError(await visitor.json('GET', '/api/admin/settings'), 401, 'auth/unauthenticated');
    expectError(await visitor.json('PUT', '/api/admin/settings', form), 401, 'auth/unauthenticated');
  });

  it('a save changes what every page and the API say, and is kept in the history: what, when, by whom', async () => {
    const before = await current();
    const moved = { ...before.settings.shop.address, line1: '14 Arena Lane' };
    const saved = await save(withShop({ phone: '(561) 555-0199', address: moved }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.settings.version).toBe(before.settings.version + 1);
    expect(saved.body.settings.shop.phone).toBe('(561) 555-0199');
    const shop = (await new Client(server.url).json('GET', '/api/shop')).body;
    expect(shop.shop).toMatchObject({ phone: '(561) 555-0199', address: moved });
    const { history } = await current();
    expect(history[0]).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      by: ownerEmail,
      what: `Address “${shopAddressText(before.settings.shop.address, 'en-US')}” → “14 Arena Lane, Wellington, FL 33414”; Phone “${before.settings.shop.phone}” → “(561) 555-0199”`,
    });
    // A save that changes nothing is no new version and no line in the history.
    const same = await save((form) => form);
    expect(same.body.settings.version).toBe(saved.body.settings.version);
    expect((await current()).history).toHaveLength(history.length);
  });

  it('a save from a stale form is refused and changes nothing', async () => {
    const { settings } = await current();
    expect((await save(withShop({ taxId: 'US-59-1234567' }))).status).toBe(200);
    const stale = await owner.json('PUT', '/api/admin/settings', {
      ...settings,
      shop: { ...settings.shop, taxId: 'US-00-0000000' },
    });
    expectError(stale, 409, 'settings/changed');
    expect((await current()).settings.shop.taxId).toBe('US-59-1234567');
  });

  it('bad input is refused with the field it is about', async () => {
    const { settings } = await current();
    const cases: [(form: ShopSettings) => unknown, string, string][] = [
      [withShop({ name: ' ' }), 'shop.name', 'Name is required.'],
      [withShop({ phone: 'call us' }), 'shop.phone', 'Phone may have only digits, spaces and + ( ) - . /'],
      [withShop({ email: 'shop at example' }), 'shop.email', 'E-mail must be an address such as shop@example.com.'],
      [withAddress({ line1: 'a'.repeat(101) }), 'shop.address.line1', 'Address line 1 must be at most 100 characters.'],
      [withAddress({ line1: ' ' }), 'shop.address.line1', 'Address line 1 is required.'],
      [
        withAddress({ postalCode: '334/14' }),
        'shop.address.postalCode',
        'Postal code may have only letters, digits, spaces and hyphens.',
      ],
      [withAddress({ country: 'XX' }), 'shop.address.country', 'There is no country XX.'],
      [
        withAddress({ region: 'Fla.' }),
        'shop.address.region',
        'Choose the state or region of United States from the list.',
      ],
      [
        withAddress({ region: 'CA-ON' }),
        'shop.address.region',
        'Choose the state or region of United States from the list.',
      ],
      [
        withAddress({ region: '' }),
        'shop.address.region',
        'Choose the state or region of United States from the list.',
      ],
      [
        (f) => ({ ...f, bankTransfer: { ...f.bankTransfer, payWithinDays: -1 } }),
        'bankTransfer.payWithinDays',
        'Days to pay must be at least 1.',
      ],
      [
        (f) => ({ ...f, bankTransfer: { ...f.bankTransfer, accountNumber: '' } }),
        'bankTransfer.accountNumber',
        'Account number is required.',
      ],
      [
        (f) => ({ ...f, bankTransfer: { ...f.bankTransfer, cancelUnpaid: 'yes' } }),
        'bankTransfer.cancelUnpaid',
        'Say whether unpaid orders are cancelled.',
      ],
      [(f) => ({ ...f, paymentMethods: [] }), 'paymentMethods', 'Offer at least one payment method.'],
      [(f) => ({ ...f, paymentMethods: ['cash'] }), 'paymentMethods.0', 'Choose payment methods from the list.'],
      [(f) => ({ ...f, paymentMethods: ['card', 'card'] }), 'paymentMethods', 'Offer each payment method once.'],
      // This server has no Stripe keys: Card alone would leave checkout without a way to pay.
      [
        (f) => ({ ...f, paymentMethods: ['card'] }),
        'paymentMethods',
        "Card needs Stripe's keys, which this server does not have: offer another method too.",
      ],
    ];
    for (const [change, field, message] of cases) {
      const reply = await owner.json('PUT', '/api/admin/settings', {
        ...(change(settings) as object),
        version: settings.version,
      });
      expectError(reply, 400, 'settings/invalid', message);
      expect(reply.body.field).toBe(field);
    }
    expect((await current()).settings).toEqual(settings);
  });

  it('the payment methods offered at checkout are the settings’: one taken away is refused', async () => {
    expect((await save((form) => ({ ...form, paymentMethods: ['bank-transfer'] }))).status).toBe(200);
    const client = await rider();
    expect((await client.json('GET', '/api/payment-methods')).body).toEqual({ methods: ['bank-transfer'] });
    await client.add('1');
    const refused = await client.placeOrder({ paymentMethod: 'collection', delivery: 'collection' });
    expectError(refused, 400, 'order/invalid-payment-method');
    expect((await save((form) => ({ ...form, paymentMethods: ['collection', 'bank-transfer'] }))).status).toBe(200);
    expect((await client.json('GET', '/api/payment-methods')).body).toEqual({
      methods: ['collection', 'bank-transfer'],
    });
    expect((await client.placeOrder({ paymentMethod: 'collection', delivery: 'collection' })).status).toBe(201);
  });

  it("an order's e-mail carries the shop's details and bank account as saved", async () => {
    expect(
      (
        await save((form) => ({
          ...withShop({ name: 'Piaffe Wellington', phone: '(561) 555-0177' })(form),
          bankTransfer: { ...form.bankTransfer, accountNumber: '9999 8888 7777' },
        }))
      ).status,
    ).toBe(200);
    const client = await rider();
    const order = await client.order('1');
    const mail = await server.mailbox?.waitFor((m) => m.parsed.subject === `Your order ${order.number}`);
    expect(mail?.parsed.text).toMatch(/Account number: +9999 8888 7777/);
    expect(mail?.parsed.text).toContain('Piaffe Wellington · ');
    expect(mail?.parsed.text).toContain(' · (561) 555-0177');
  });

  it('every open page hears the shop as saved, on its own stream', async () => {
    const client = await rider();
    const page = await EventStream.open<AccountEvent>(client, '/api/account/stream');
    try {
      await page.next('ready');
      expect((await save(withShop({ phone: '(561) 555-0111' }))).status).toBe(200);
      const { shop } = await page.next('shop', 1000);
      expect(shop.phone).toBe('(561) 555-0111');
    } finally {
      page.close();
    }
  });
});
