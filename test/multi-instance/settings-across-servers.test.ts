import { describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import type { PublicShop, VersionedSettings } from '../../src/shared/settings';
import { Client } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { twoServersOnOneSchema } from '../support/two-servers';

/**
 * The shop's settings on two servers sharing one PostgreSQL schema (docs/decisions/0034-the-shops-settings.md): each
 * keeps them in memory, and a save through one reaches the other's cache, its open pages and its next order at once.
 */
const servers = twoServersOnOneSchema({ owner: true });

async function settingsNow(): Promise<VersionedSettings> {
  return (await servers.owner.json('GET', '/api/admin/settings')).body.settings;
}

type AccountEvent = { type: 'ready' } | ({ type: 'shop' } & PublicShop);

describe("the shop's settings on two servers", () => {
  it("a save through A reaches B's open pages, B's answers and B's next order within a second", async () => {
    const rider = new Client(servers.b.url);
    await rider.signupConfirmed();
    // B has read the settings (its cache is warm) before the save.
    expect((await rider.json('GET', '/api/shop')).body.shop.phone).toBe('(561) 555-0142');
    expect((await rider.json('GET', '/api/payment-methods')).body.methods).toEqual(['bank-transfer', 'collection']);
    const page = await EventStream.open<AccountEvent>(rider, '/api/account/stream');
    try {
      await page.next('ready');
      const before = await settingsNow();
      const saved = await servers.owner.json('PUT', '/api/admin/settings', {
        ...before,
        shop: { ...before.shop, phone: '(561) 555-0123' },
        bankTransfer: { ...before.bankTransfer, accountNumber: '1111 2222 3333' },
        paymentMethods: ['bank-transfer'],
      });
      expect(saved.status).toBe(200);
      const { shop } = await page.next('shop', 1000);
      expect(shop.phone).toBe('(561) 555-0123');
    } finally {
      page.close();
    }
    expect((await rider.json('GET', '/api/shop')).body.shop.phone).toBe('(561) 555-0123');
    expect((await rider.json('GET', '/api/payment-methods')).body.methods).toEqual(['bank-transfer']);
    // B's next order: the method taken away is refused, the e-mail has the new account.
    await rider.add('1');
    expectError(
      await rider.placeOrder({ paymentMethod: 'collection', delivery: 'collection' }),
      400,
      'order/invalid-payment-method',
    );
    const placed = await rider.placeOrder();
    expect(placed.status).toBe(201);
    const number = placed.body.order.number;
    const mails = [servers.a.mailbox, servers.b.mailbox].map((box) =>
      box?.waitFor((m) => m.parsed.subject === `Your order ${number}`),
    );
    const mail = await Promise.any(mails);
    expect(mail?.parsed.text).toMatch(/Account number: +1111 2222 3333/);
  });

  it("a shipping price saved through A prices B's quote within a second, and B's next order at once", async () => {
    const rider = new Client(servers.b.url);
    await rider.signupConfirmed();
    await rider.add('3');
    // B has priced a quote (its cache is warm) before the save.
    const shown = (await rider.json('GET', '/api/checkout/quote')).body;
    expect(shown.shipping.options).toEqual([{ id: 'standard', name: 'Standard', cents: 2500, estimate: '' }]);
    const page = await EventStream.open<AccountEvent>(rider, '/api/account/stream');
    try {
      await page.next('ready');
      const before = await settingsNow();
      const [zone] = before.shipping.zones;
      if (zone === undefined) throw new Error('a new shop has a zone');
      const methods = zone.methods.map((method) => ({ ...method, price: { kind: 'flat' as const, cents: 3100 } }));
      const saved = await servers.owner.json('PUT', '/api/admin/settings', {
        ...before,
        shipping: { ...before.shipping, zones: [{ ...zone, methods }] },
      });
      expect(saved.status).toBe(200);
      // The order B places now is priced by what its own transaction reads, whether or not B has heard yet.
      expectError(
        await rider.placeOrder({ shippingMethod: 'standard', shippingCents: 2500 }),
        409,
        'order/shipping-changed',
      );
      await page.next('shop', 1000);
    } finally {
      page.close();
    }
    const now = (await rider.json('GET', '/api/checkout/quote')).body;
    expect(now.money.shippingCents).toBe(3100);
    const placed = await rider.placeOrder({ shippingMethod: 'standard', shippingCents: 3100 });
    expect(placed.status).toBe(201);
    expect(placed.body.order.money.shippingCents).toBe(3100);
  });

  it('two owners saving at once on two servers: one save wins, the other is told the settings changed', async () => {
    const other = new Client(servers.b.url);
    const { email } = await other.signupConfirmed();
    await createRoles(servers.b.db).grant(email);
    const form = await settingsNow();
    const [first, second] = await Promise.all([
      servers.owner.json('PUT', '/api/admin/settings', { ...form, shop: { ...form.shop, taxId: 'A-1' } }),
      other.json('PUT', '/api/admin/settings', { ...form, shop: { ...form.shop, taxId: 'B-1' } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const winner = first.status === 200 ? 'A-1' : 'B-1';
    expect((await settingsNow()).shop.taxId).toBe(winner);
    expect((await other.json('GET', '/api/admin/settings')).body.settings.shop.taxId).toBe(winner);
  });
});
