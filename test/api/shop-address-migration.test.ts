import { afterAll, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { shopAddressText } from '../../src/shared/address';
import { Client } from '../support/client';
import { startTestServer } from '../support/server';
import { createDatabase, type TestDatabase, undoShopAddressInParts } from '../support/test-database';

/**
 * Migration 0034 on a shop whose address was one line of text (docs/decisions/0051-a-sale-at-the-yard.md): the shop is
 * made with this version, its address taken back to the text an owner had typed, and started again.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

it("reads an owner's address in its parts, which print as the owner typed it, and the form asks for what is missing", async () => {
  database = await createDatabase();
  const first = await startTestServer({ DATABASE_URL: database.url });
  const owner = new Client(first.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(first.db).grant(email);
  await first.stop();

  for (const [typed, parts] of [
    [
      '300 Stable Road, Suite 2, Ocala, FL 34482',
      {
        line1: '300 Stable Road, Suite 2',
        line2: '',
        city: 'Ocala',
        region: 'US-FL',
        postalCode: '34482',
        country: 'US',
      },
    ],
    [
      'Reitweg 3, 48143 Münster',
      { line1: 'Reitweg 3', line2: '', city: '48143 Münster', region: '', postalCode: '', country: 'US' },
    ],
  ] as const) {
    await undoShopAddressInParts(database, typed);
    const server = await startTestServer({ DATABASE_URL: database.url });
    try {
      const again = new Client(server.url);
      expect((await again.login(email, 'secret1')).status).toBe(200);
      const { settings } = (await again.json('GET', '/api/admin/settings')).body;
      expect(settings.shop.address).toEqual(parts);
      expect(shopAddressText(settings.shop.address, 'en-US')).toBe(typed);
      // Every page shows it as before.
      const shop = (await new Client(server.url).json('GET', '/api/shop')).body;
      expect(shopAddressText(shop.shop.address, 'en-US')).toBe(typed);
      if (parts.region === '') {
        // Its state is unknown: the next save asks for it, at its field.
        const saved = await again.json('PUT', '/api/admin/settings', settings);
        expect(saved.body).toMatchObject({ code: 'settings/invalid', field: 'shop.address.region' });
        const fixed = { ...settings, shop: { ...settings.shop, address: newShopSettings.shop.address } };
        expect((await again.json('PUT', '/api/admin/settings', fixed)).status).toBe(200);
      }
    } finally {
      await server.stop();
    }
  }
});
