import { beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { firstWeights } from '../../src/server/db/migrations/0016-product-weights';
import { firstShipping } from '../../src/server/db/migrations/0023-shipping-zones';
import type { ShippingMethod, ShippingSettings, ShippingZone, VersionedSettings } from '../../src/shared/settings';
import { address, Client, confirmedRider, todaysShipping } from '../support/client';
import { expectError } from '../support/expect-error';
import { standard, untaxed } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';
import { shopWithOwner } from '../support/shop-with-owner';

// One shop and its owner for the file's tests (test/support/shop-with-owner.ts).
const shop = shopWithOwner();
let server: TestServer;
let owner: Client;
beforeAll(() => {
  ({ server, owner } = shop);
});

const priceOf = (itemid: string) => catalogue.find((p) => p.itemid === itemid)?.priceCents ?? Number.NaN;

async function settings(): Promise<VersionedSettings> {
  return (await owner.json('GET', '/api/admin/settings')).body.settings;
}

/** The owner's form saved with `shipping`, from the settings as they are now. */
async function saveShipping(shipping: ShippingSettings) {
  const current = await settings();
  return owner.json('PUT', '/api/admin/settings', { ...current, shipping });
}

async function useShipping(shipping: ShippingSettings): Promise<void> {
  const reply = await saveShipping(shipping);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

async function rider(...itemids: string[]): Promise<Client> {
  const client = await confirmedRider(server.url);
  for (const itemid of itemids) await client.add(itemid);
  return client;
}

function quote(client: Client, query: Record<string, string> = {}) {
  return client.json('GET', `/api/checkout/quote?${new URLSearchParams(query)}`);
}

const flat = (id: string, name: string, cents: number, more: Partial<ShippingMethod> = {}): ShippingMethod => ({
  id,
  name,
  price: { kind: 'flat', cents },
  freeFromCents: null,
  estimate: '',
  ...more,
});

const zone = (id: string, name: string, places: ShippingZone['places'], methods: ShippingMethod[]): ShippingZone => ({
  id,
  name,
  places,
  methods,
});

const collection = { offered: true, estimate: 'Ready the next working day' };

describe('shipping zones (docs/product.md §18)', () => {
  it("a new shop ships as before: one zone, the United States, 'Standard' at $25.00, free from $500.00", async () => {
    expect(firstShipping).toEqual({
      zones: [
        {
          id: 'united-states',
          name: 'United States',
          places: [{ country: 'US', regions: [] }],
          methods: [
            {
              id: 'standard',
              name: 'Standard',
              price: { kind: 'flat', cents: todaysShipping.flatCents },
              freeFromCents: todaysShipping.freeFromCents,
              estimate: '',
            },
          ],
        },
      ],
      collection: { offered: true, estimate: '' },
    });
    const fresh = await startTestServer();
    try {
      const admin = new Client(fresh.url);
      const { email } = await admin.signupConfirmed();
      await createRoles(fresh.db).grant(email);
      expect((await admin.json('GET', '/api/admin/settings')).body.settings.shipping).toEqual(firstShipping);
    } finally {
      await fresh.stop();
    }
  });

  it('prices by weight: an order on a band’s edge pays that band, a heavier one the next, heavier than all none', async () => {
    await useShipping({
      zones: [
        zone(
          'us',
          'United States',
          [{ country: 'US', regions: [] }],
          [
            {
              ...flat('by-weight', 'Parcel', 0),
              price: {
                kind: 'bands',
                bands: [
                  { upToGrams: firstWeights['3'] ?? 0, cents: 1200 },
                  { upToGrams: 5000, cents: 1800 },
                ],
              },
              estimate: '3 to 5 working days',
            },
          ],
        ),
      ],
      collection,
    });
    // Item 3 weighs exactly the first band's limit.
    const client = await rider('3');
    const onEdge = (await quote(client)).body;
    expect(onEdge.shipping).toEqual({
      options: [{ id: 'by-weight', name: 'Parcel', cents: 1200, estimate: '3 to 5 working days' }],
      chosen: 'by-weight',
    });
    expect(onEdge.money).toEqual(
      untaxed({
        subtotalCents: priceOf('3'),
        shippingCents: 1200,
        shippingMethod: { name: 'Parcel', estimate: '3 to 5 working days' },
        totalCents: priceOf('3') + 1200,
      }),
    );
    const placed = await client.placeOrder({ shippingMethod: 'by-weight', shippingCents: 1200 });
    expect(placed.status).toBe(201);
    expect(placed.body.order.money).toMatchObject({
      shippingCents: 1200,
      shippingMethod: { name: 'Parcel', estimate: '3 to 5 working days' },
    });

    const heavier = await rider('3', '6');
    expect((await quote(heavier)).body.money.shippingCents).toBe(1800);
    // The saddle weighs more than the last band: the method is not offered, and the order cannot ship.
    const saddle = await rider('2');
    expect((await quote(saddle)).body.shipping).toEqual({
      options: [],
      chosen: null,
      refusal: 'Choose one of the delivery methods offered for this address.',
    });
    expectError(await saddle.placeOrder(), 400, 'order/invalid-shipping-method');
  });

  it('gives a zone for a state of a country its own methods, over the zone of the whole country', async () => {
    await useShipping({
      zones: [
        zone('us', 'United States', [{ country: 'US', regions: [] }], [flat('standard', 'Standard', 2500)]),
        zone(
          'florida',
          'Florida',
          [{ country: 'US', regions: ['US-FL'] }],
          [flat('fl-standard', 'Standard', 900), flat('fl-courier', 'Courier', 1500, { estimate: 'Tomorrow' })],
        ),
      ],
      collection,
    });
    const client = await rider('3');
    const florida = (await quote(client, { country: 'US', region: 'US-FL', method: 'fl-courier' })).body;
    expect(florida.shipping).toEqual({
      options: [
        { id: 'fl-standard', name: 'Standard', cents: 900, estimate: '' },
        { id: 'fl-courier', name: 'Courier', cents: 1500, estimate: 'Tomorrow' },
      ],
      chosen: 'fl-courier',
    });
    expect((await quote(client, { country: 'US', region: 'US-GA' })).body.shipping.options).toEqual([
      { id: 'standard', name: 'Standard', cents: 2500, estimate: '' },
    ]);
    // A region given by its name or by the code within its country (an API client, an older page) is the same region,
    // as it is for the tax rates.
    for (const region of ['Florida', 'fl']) {
      expect(
        (await quote(client, { country: 'US', region })).body.shipping.options.map((o: { id: string }) => o.id),
      ).toEqual(['fl-standard', 'fl-courier']);
    }
    // A method of another zone is not one this address may choose.
    expectError(
      await client.placeOrder({ address: { ...address, region: 'US-GA' }, shippingMethod: 'fl-courier' }),
      400,
      'order/invalid-shipping-method',
    );
    const placed = await client.placeOrder({
      address: { ...address, region: 'US-FL' },
      shippingMethod: 'fl-courier',
      shippingCents: 1500,
      totalCents: florida.money.totalCents,
    });
    expect(placed.status).toBe(201);
    const { order } = placed.body;
    expect(order.money).toMatchObject({
      shippingCents: 1500,
      shippingMethod: { name: 'Courier', estimate: 'Tomorrow' },
      totalCents: priceOf('3') + 1500,
    });
    // The order page, the e-mail and the CSV say how it comes.
    expect((await client.json('GET', `/api/orders/${order.number}`)).body.order).toEqual(order);
    const mail = await server.db.kysely
      .selectFrom('outbox')
      .select('text_body')
      .where('recipient', '=', client.user?.email ?? '')
      .where('kind', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('Delivery: Courier, Tomorrow');
    // The region is kept as its code and printed by its name.
    expect(order.address.region).toBe('US-FL');
    expect(mail.text_body).toContain('Wellington, Florida 33414');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const csv = await owner.raw('GET', `/api/admin/orders.csv?from=${day(-1)}&to=${day(1)}`);
    expect(csv.status).toBe(200);
    const row = String(csv.body)
      .split('\r\n')
      .find((line) => line.startsWith(`"${order.number}"`));
    expect(row).toMatch(/,"Courier, Tomorrow"$/);
  });

  it("takes an address's region as one of its country's subdivisions, by code or name, refuses anything else, and a country that does not exist", async () => {
    await useShipping({ ...firstShipping, collection });
    const client = await rider('3');
    // Another country's, none, an abbreviation, a city: each refused with its field, nothing ordered.
    for (const region of ['CA-ON', 'US-ZZ', 'Fla.', 'Honolulu HI', 'Floridaa']) {
      const refused = await client.placeOrder({ address: { ...address, region } });
      expectError(refused, 400, 'order/invalid-address', 'Choose the state or region of United States from the list.');
      expect(refused.body.field).toBe('address.region');
      expectError(
        await client.json('GET', `/api/checkout/quote?${new URLSearchParams({ country: 'US', region })}`),
        400,
        'order/invalid-address',
        'Choose the state or region of United States from the list.',
      );
    }
    expectError(
      await client.placeOrder({ address: { ...address, country: 'QQ' } }),
      400,
      'order/invalid-address',
      'Choose a country from the list.',
    );
    expectError(
      await client.placeOrder({ address: { ...address, country: 'AQ', region: 'Ross Dependency' } }),
      400,
      'order/invalid-address',
      'Choose a country from the list.',
    );
    // A subdivision as API clients and older pages send it: its code within the country, its name in any case, with
    // or without its accents and marks. The order keeps its ISO 3166-2 code.
    for (const [region, code] of [
      ['FL', 'US-FL'],
      ['florida', 'US-FL'],
      ["Hawai'i", 'US-HI'],
      ['us-hi', 'US-HI'],
    ]) {
      await client.add('3');
      const typed = await client.placeOrder({ address: { ...address, region } });
      expect(typed.status, JSON.stringify(typed.body)).toBe(201);
      expect(typed.body.order.address.region).toBe(code);
    }
    // A country without subdivisions takes its region as text.
    await useShipping({
      ...firstShipping,
      zones: [
        ...firstShipping.zones,
        {
          id: 'gibraltar',
          name: 'Gibraltar',
          places: [{ country: 'GI', regions: [] }],
          methods: [flat('post', 'Post', 3000)],
        },
      ],
      collection,
    });
    await client.add('3');
    const gibraltar = await client.placeOrder({
      address: { ...address, country: 'GI', region: 'Upper Town', postalCode: 'GX11 1AA' },
    });
    expect(gibraltar.status, JSON.stringify(gibraltar.body)).toBe(201);
    expect(gibraltar.body.order.address.region).toBe('Upper Town');
  });

  it('prices a region given by name or code at its own zone: Honolulu in the Hawaii zone, however Hawaii is written', async () => {
    const [us] = firstShipping.zones;
    if (us === undefined) throw new Error('a new shop has a zone');
    const hawaii = {
      id: 'hawaii',
      name: 'Hawaii',
      places: [{ country: 'US', regions: ['US-HI'] }],
      methods: [flat('island', 'Island freight', 8000)],
    };
    await useShipping({ ...firstShipping, zones: [us, hawaii], collection });
    const client = await rider('3');
    for (const region of ['US-HI', 'HI', 'Hawaii', "Hawai'i"]) {
      const { body } = await quote(client, { country: 'US', region, postalCode: '96813' });
      expect(body.money.shippingCents, region).toBe(8000);
    }
    const placed = await client.placeOrder({ address: { ...address, region: 'Hawaii', postalCode: '96813' } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order.money).toMatchObject({ shippingCents: 8000, shippingMethod: { name: 'Island freight' } });
  });

  it("'Collect at the yard' needs a name and a phone, and no address; without either it is refused", async () => {
    await useShipping({ ...firstShipping, collection });
    const client = await rider('3');
    const noAddress = { fullName: 'Ada Rider', line1: '', city: '', region: '', postalCode: '', country: 'US' };
    expectError(
      await client.placeOrder({ paymentMethod: 'collection', address: noAddress }),
      400,
      'order/invalid-address',
      'Phone is required to collect at the yard: the shop calls when the order is ready.',
    );
    expectError(
      await client.placeOrder({ delivery: 'shipping', address: { ...noAddress, phone: '555 0100' } }),
      400,
      'order/invalid-address',
      'Address line 1 is required.',
    );
    const collected = await client.placeOrder({
      paymentMethod: 'collection',
      address: { ...noAddress, phone: '555 0100' },
    });
    expect(collected.status).toBe(201);
    expect(collected.body.order).toMatchObject({
      money: {
        shippingCents: 0,
        shippingMethod: { name: 'Collect at the yard', estimate: 'Ready the next working day' },
      },
      address: { fullName: 'Ada Rider', line1: '', phone: '555 0100' },
    });
    // With the whole address, as before.
    const withAddress = await (await rider('3')).placeOrder({ paymentMethod: 'collection' });
    expect(withAddress.status).toBe(201);
  });

  it('refuses an order whose delivery price changed since the page showed it, and the quote shows the new one', async () => {
    await useShipping(firstShipping);
    const client = await rider('3');
    const shown = (await quote(client)).body;
    expect(shown.money.shippingCents).toBe(2500);
    const [us] = firstShipping.zones;
    if (us === undefined) throw new Error('a new shop has a zone');
    await useShipping({ ...firstShipping, zones: [{ ...us, methods: [flat('standard', 'Standard', 3000)] }] });
    const refused = await client.placeOrder({
      shippingMethod: 'standard',
      shippingCents: shown.money.shippingCents,
      totalCents: shown.money.totalCents,
    });
    expectError(
      refused,
      409,
      'order/shipping-changed',
      'Standard is now $30.00: the price changed since this page showed it. Please check your order and place it again.',
    );
    expect(await client.cart()).toHaveLength(1);
    expect((await quote(client)).body.money).toEqual(
      untaxed({
        subtotalCents: priceOf('3'),
        shippingCents: 3000,
        shippingMethod: standard,
        totalCents: priceOf('3') + 3000,
      }),
    );
  });

  it('says an address outside every zone is not shipped to, and refuses its order', async () => {
    await useShipping(firstShipping);
    const client = await rider('3');
    expect((await quote(client, { country: 'CA', region: 'CA-ON' })).body).toMatchObject({
      money: { subtotalCents: priceOf('3'), shippingCents: 0, totalCents: priceOf('3') },
      shipping: { options: [], chosen: null, refusal: 'We do not ship to Canada yet.' },
    });
    const refused = await client.placeOrder({ address: { ...address, country: 'CA', region: 'CA-ON' } });
    expectError(refused, 400, 'order/not-shipped', 'We do not ship to Canada yet.');
    expect(await client.cart()).toHaveLength(1);
    // Collection is for everyone, wherever they live.
    const collected = await client.placeOrder({
      paymentMethod: 'collection',
      address: { ...address, country: 'CA', region: 'CA-ON' },
    });
    expect(collected.status).toBe(201);
  });

  it('refuses bad shipping settings with a message at the field', async () => {
    await useShipping(firstShipping);
    const [us] = firstShipping.zones;
    const standard = us?.methods[0];
    if (us === undefined || standard === undefined) throw new Error('a new shop has a zone and a method');
    const withZone = (changed: Partial<ShippingZone>): ShippingSettings => ({
      ...firstShipping,
      zones: [{ ...us, ...changed }],
    });
    const withMethod = (changed: Partial<ShippingMethod>) => withZone({ methods: [{ ...standard, ...changed }] });
    const cases: [string, ShippingSettings, string, string][] = [
      ['an empty zone name', withZone({ name: ' ' }), 'shipping.zones.0.name', 'Zone name is required.'],
      ['an empty method name', withMethod({ name: '' }), 'shipping.zones.0.methods.0.name', 'Name is required.'],
      [
        'a negative price',
        withMethod({ price: { kind: 'flat', cents: -1 } }),
        'shipping.zones.0.methods.0.price.cents',
        'Price cannot be negative.',
      ],
      [
        'overlapping weight bands',
        withMethod({
          price: {
            kind: 'bands',
            bands: [
              { upToGrams: 2000, cents: 1000 },
              { upToGrams: 2000, cents: 1500 },
            ],
          },
        }),
        'shipping.zones.0.methods.0.price.bands.1.upToGrams',
        'The bands overlap: this one must go above 2000 g.',
      ],
      [
        'a country code that does not exist',
        withZone({ places: [{ country: 'XX', regions: [] }] }),
        'shipping.zones.0.places.0.country',
        'There is no country XX.',
      ],
      [
        'a region the country does not have',
        withZone({ places: [{ country: 'US', regions: ['US-ZZ'] }] }),
        'shipping.zones.0.places.0.regions.0',
        'United States has no region US-ZZ.',
      ],
      [
        'a zone with no method',
        withZone({ methods: [] }),
        'shipping.zones.0.methods',
        'A zone offers at least one delivery method.',
      ],
    ];
    for (const [what, shipping, field, message] of cases) {
      const reply = await saveShipping(shipping);
      expectError(reply, 400, 'settings/invalid', message);
      expect(reply.body.field, what).toBe(field);
    }
    // 'Pay on collection' only with collection.
    const reply = await saveShipping({ ...firstShipping, collection: { offered: false, estimate: '' } });
    expectError(
      reply,
      400,
      'settings/invalid',
      "'Pay on collection' needs 'Collect at the yard': offer both, or neither.",
    );
    expect((await settings()).shipping).toEqual(firstShipping);
  });

  it('keeps every change of the zones in the history', async () => {
    await useShipping(firstShipping);
    const [us] = firstShipping.zones;
    if (us === undefined) throw new Error('a new shop has a zone');
    const canada = zone('canada', 'Canada', [{ country: 'CA', regions: [] }], [flat('ca-standard', 'Standard', 4000)]);
    await useShipping({ ...firstShipping, zones: [us, canada] });
    await useShipping({ ...firstShipping, zones: [canada, us] });
    await useShipping(firstShipping);
    const { history } = (await owner.json('GET', '/api/admin/settings')).body;
    expect(history.slice(0, 3).map((change: { what: string }) => change.what)).toEqual([
      'Shipping zone “Canada” removed',
      'Shipping zones reordered: “Canada”, “United States”',
      'Shipping zone “Canada” added',
    ]);
  });

  it('lists the countries and a country’s subdivisions, by ISO 3166 code', async () => {
    const visitor = new Client(server.url);
    const { countries } = (await visitor.json('GET', '/api/places')).body;
    expect(countries).toContainEqual({ code: 'CA', name: 'Canada' });
    const { regions } = (await visitor.json('GET', '/api/places/US')).body;
    expect(regions).toContainEqual({ code: 'US-FL', name: 'Florida' });
    expectError(await visitor.json('GET', '/api/places/XX'), 404, 'places/unknown-country');
  });
});
