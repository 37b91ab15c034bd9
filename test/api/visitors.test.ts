import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpointAccess } from '../../src/server/auth/access-gate';
import { createCartStore } from '../../src/server/cart/cart-store';
import { createVisitorCarts } from '../../src/server/cart/visitor-carts';
import { type Access, mayReach, type Who } from '../../src/shared/access';
import { endpoints } from '../../src/shared/api';
import { limits } from '../../src/shared/limits';
import { openToChoices } from '../../src/shared/settings';
import { Client, withSize } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { shopWithOwner } from '../support/shop-with-owner';
import { cartCookieOf, setOpenTo } from '../support/visitors';

// docs/product.md §23: a shop open to everyone, if the owner wants.
const shop = shopWithOwner();

/** A visitor of the shop: a browser without a session. */
const visitor = () => new Client(shop.server.url);

/** A request that stands for each endpoint: its path with `x` for each parameter; a stream asked by HEAD. */
function requestOf(name: keyof typeof endpoints): { method: string; path: string } {
  const { method, path } = endpoints[name];
  const filled = path.replace(/:[A-Za-z]+/g, 'x');
  return { method: filled.endsWith('/stream') ? 'HEAD' : method, path: filled };
}

describe('who may reach each API route (one rule, src/shared/access.ts)', () => {
  // Generated from the contract: a route added to it is in this table, and the gate's table must name it (tsc).
  const names = Object.keys(endpoints) as (keyof typeof endpoints)[];

  it('names every route of the contract, and a path that is none is 404 for everyone', async () => {
    expect(Object.keys(endpointAccess).sort()).toEqual([...names].sort());
    // What a visitor reaches, written out here as docs/API.md says it: a route that joins either list does so on
    // purpose, never because the table above was changed alone.
    const reached = (access: readonly Access[]) => names.filter((name) => access.includes(endpointAccess[name]));
    expect(reached(['anyone'])).toEqual([
      'signUp',
      'logIn',
      'logOut',
      'passkeyLogInOptions',
      'passkeyLogIn',
      'requestPasswordReset',
      'checkResetLink',
      'resetPassword',
      'confirmEmail',
      'catalogue',
      'products',
      'product',
      'paymentMethods',
      'countries',
      'regions',
      'shop',
      'stripeWebhook',
    ]);
    expect(reached(['shop'])).toEqual(['catalogueStream', 'cart', 'addToCart', 'removeFromCart', 'cartStream']);
    expect(names.filter((name) => name.startsWith('admin'))).toEqual(reached(['owner']));
    for (const client of [visitor(), shop.owner]) {
      expectError(await client.json('GET', '/api/nope'), 404, 'request/not-found');
      expectError(await client.json('PATCH', '/api/cart'), 404, 'request/not-found');
    }
  });

  const clients: Record<Who, () => Promise<Client>> = {
    visitor: async () => visitor(),
    rider: async () => {
      const rider = visitor();
      await rider.signup();
      return rider;
    },
    owner: async () => shop.owner,
  };

  for (const openTo of openToChoices) {
    for (const who of ['visitor', 'rider', 'owner'] as const) {
      it(`in a shop open to ${openTo}: ${who === 'owner' ? 'an' : 'a'} ${who} reaches what the rule says`, async () => {
        await setOpenTo(shop.owner, openTo);
        let client = await clients[who]();
        for (const name of names) {
          // Logging out, or deleting the account, ends the session the next requests need: those two come from a
          // rider of their own (the owner's, too, is the rider's: the owner must stay).
          const ends = name === 'logOut' || name === 'deleteAccount';
          const asking = ends && who !== 'visitor' ? await clients.rider() : client;
          const { method, path } = requestOf(name);
          const reply = await asking.json(method, path);
          // A HEAD's answer has no body: its status stands for the code.
          const headCodes: Record<number, string> = {
            401: 'auth/unauthenticated',
            403: 'auth/forbidden',
            404: 'request/not-found',
          };
          const code = method === 'HEAD' ? headCodes[reply.status] : reply.body?.code;
          const access: Access = endpointAccess[name];
          const where = `${who} ${method} ${path} (${access}, open to ${openTo}): ${reply.status} ${JSON.stringify(reply.body)}`;
          const asWho: Who = ends && who === 'owner' ? 'rider' : who;
          if (name === 'stripeWebhook') {
            // A server without Stripe's keys has no webhook (docs/API.md): whoever asks, the same 404.
            expectError(reply, 404, 'request/not-found');
          } else if (!mayReach(access, asWho, openTo)) {
            expect(code, where).toBe(asWho === 'visitor' ? 'auth/unauthenticated' : 'auth/forbidden');
          } else {
            // Through the gate: the route answers for itself (a body it refuses, a thing not found, a 204).
            expect(['auth/unauthenticated', 'auth/forbidden', 'request/not-found'], where).not.toContain(code);
          }
          if (client.cookies.size === 0 && who !== 'visitor') client = await clients[who]();
        }
      });
    }
  }
});

describe("a visitor's cart in a shop open to everyone", () => {
  it('lives under a cookie of its own (random, HttpOnly, 30 days), with no rider named in it', async () => {
    await setOpenTo(shop.owner, 'everyone');
    const browser = visitor();
    const added = await browser.json('POST', '/api/cart', withSize('1'));
    expect(added.status).toBe(201);
    expect(added.body.item).toMatchObject({ itemid: '1', uid: null, available: true });
    const cookie = cartCookieOf(added.headers) ?? '';
    expect(cookie).toMatch(/^piaffe\.cart=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    // Its second add keeps the cart and sets no new cookie.
    const again = await browser.json('POST', '/api/cart', withSize('2'));
    expect(cartCookieOf(again.headers)).toBeUndefined();
    expect((await browser.json('GET', '/api/cart')).body.items.map((i: { itemid: string }) => i.itemid)).toEqual([
      '1',
      '2',
    ]);
    // Another visitor has a cart of their own, empty, and none is made by looking.
    const other = visitor();
    const looked = await other.json('GET', '/api/cart');
    expect(looked.body).toEqual({ items: [] });
    expect(cartCookieOf(looked.headers)).toBeUndefined();
    expectError(await other.json('DELETE', `/api/cart/${added.body.item.id}`), 404, 'cart/not-found');
    // The database keeps the cookie's hash, never the cookie.
    const token = cookie.split(';')[0]?.split('=')[1] ?? '';
    const rows = await shop.server.db.kysely.selectFrom('visitor_cart').select('id').execute();
    expect(rows.some((row) => row.id === token)).toBe(false);
    expect((await browser.json('DELETE', `/api/cart/${added.body.item.id}`)).status).toBe(204);
    expect((await browser.json('GET', '/api/cart')).body.items).toHaveLength(1);
  });

  it('a cookie that is forged, or names no cart here, is an empty cart, and the next add makes a new one', async () => {
    await setOpenTo(shop.owner, 'everyone');
    for (const forged of [randomBytes(32).toString('base64url'), 'x', '%00%ff', 'a'.repeat(4000)]) {
      const browser = visitor();
      browser.cookies.set('piaffe.cart', forged);
      expect((await browser.json('GET', '/api/cart')).body).toEqual({ items: [] });
      const added = await browser.json('POST', '/api/cart', withSize('1'));
      expect(added.status).toBe(201);
      expect(cartCookieOf(added.headers)).toBeDefined();
      expect((await browser.json('GET', '/api/cart')).body.items).toHaveLength(1);
    }
  });

  it("keeps a rider's stock rules: sold out, hidden, full", async () => {
    await setOpenTo(shop.owner, 'everyone');
    const browser = visitor();
    await shop.server.stock.set(0, { itemid: '4', size: 'XS' });
    expectError(await browser.json('POST', '/api/cart', { itemid: '4', size: 'XS' }), 409, 'cart/sold-out');
    expectError(await browser.json('POST', '/api/cart', { itemid: '4', size: 'XXL' }), 400, 'cart/invalid-size');
    for (let row = 0; row < limits.cartMaxRows; row++) await browser.add('1');
    expectError(await browser.json('POST', '/api/cart', withSize('1')), 409, 'cart/full');
  });

  it('is live across the visitor\'s tabs, and a switch to "Members only" sends them away at once', async () => {
    await setOpenTo(shop.owner, 'everyone');
    const tab = visitor();
    await tab.add('1');
    const otherTab = new Client(shop.server.url, tab.address);
    otherTab.cookies = new Map(tab.cookies);
    const stream = await EventStream.open(otherTab);
    expect(stream.status).toBe(200);
    await stream.next('snapshot');
    const added = await tab.add('2');
    expect((await stream.next('added')).item).toEqual(added);
    const catalogue = await EventStream.open(tab, '/api/catalogue/stream');
    expect(catalogue.status).toBe(200);

    await setOpenTo(shop.owner, 'members');
    await stream.ended();
    await catalogue.ended();
    expect(stream.events.map((event) => event.type)).toContain('signed-out');
    expectError(await tab.json('GET', '/api/cart'), 401, 'auth/unauthenticated');
    expectError(await tab.json('POST', '/api/cart', withSize('3')), 401, 'auth/unauthenticated');
    expect((await EventStream.open(tab)).status).toBe(401);

    // The cart waited.
    await setOpenTo(shop.owner, 'everyone');
    expect((await tab.json('GET', '/api/cart')).body.items.map((i: { id: string }) => i.id)).toContain(added.id);
  });

  it("counts a visitor's streams per client address", async () => {
    await setOpenTo(shop.owner, 'everyone');
    const network = '127.0.7.2';
    const open: EventStream[] = [];
    try {
      // Twenty visitors' tabs from one network; the 21st is refused, while a rider there still gets one.
      for (let tab = 0; tab < 20; tab++) {
        const stream = await EventStream.open(new Client(shop.server.url, network), '/api/catalogue/stream');
        expect(stream.status).toBe(200);
        open.push(stream);
      }
      expect((await EventStream.open(new Client(shop.server.url, network), '/api/catalogue/stream')).status).toBe(429);
    } finally {
      for (const stream of open) stream.close();
    }
  });
});

describe("a visitor's cart joins the account's at sign-up and log-in", () => {
  it('at sign-up: the lines are in the new account, and the cart cookie goes', async () => {
    await setOpenTo(shop.owner, 'everyone');
    const browser = visitor();
    await browser.add('1');
    await browser.add('4', 'S');
    const signedUp = await browser.json('POST', '/api/auth/signup', {
      email: `visitor-${randomBytes(6).toString('hex')}@example.com`,
      password: 'secret1',
    });
    expect(signedUp.status).toBe(201);
    expect(cartCookieOf(signedUp.headers)).toMatch(/Max-Age=0/);
    const items = (await browser.json('GET', '/api/cart')).body.items;
    expect(items.map((i: { itemid: string; size: string }) => `${i.itemid} ${i.size}`)).toEqual(['1 Full', '4 S']);
    expect(items.every((i: { uid: string }) => i.uid === signedUp.body.user.uid)).toBe(true);
  });

  it("at log-in: after the rider's own rows, the same size too, exactly once when five tabs log in at once", async () => {
    await setOpenTo(shop.owner, 'everyone');
    const rider = visitor();
    const { email } = await rider.signup();
    await rider.add('1');
    const browser = visitor();
    await browser.add('1');
    await browser.add('2');
    // Five tabs of the visitor's browser (as many log-ins of one address as the throttle lets run at once), each with
    // its cart cookie, log in at the same moment.
    const tabs = Array.from({ length: 5 }, () => {
      const tab = new Client(shop.server.url, browser.address);
      tab.cookies = new Map(browser.cookies);
      return tab;
    });
    const logins = await Promise.all(tabs.map((tab) => tab.login(email, 'secret1')));
    expect(logins.map((reply) => reply.status)).toEqual(Array(5).fill(200));
    const items = (await rider.json('GET', '/api/cart')).body.items;
    expect(items.map((i: { itemid: string }) => i.itemid)).toEqual(['1', '1', '2']);
    const cartId = createHash('sha256')
      .update(browser.cookies.get('piaffe.cart') ?? '')
      .digest('base64url');
    expect(
      await shop.server.db.kysely.selectFrom('visitor_cart').where('id', '=', cartId).selectAll().execute(),
    ).toEqual([]);
    // The visitor's cart is gone: its cookie opens nothing now.
    const stale = visitor();
    stale.cookies = new Map(browser.cookies);
    expect((await stale.json('GET', '/api/cart')).body).toEqual({ items: [] });
  });
});

describe("visitors' carts are swept", () => {
  it('30 days after their last change, with their rows; a newer one stays', async () => {
    await setOpenTo(shop.owner, 'everyone');
    const old = visitor();
    await old.add('1');
    const recent = visitor();
    await recent.add('2');
    const dayMs = 24 * 60 * 60 * 1000;
    const carts = createVisitorCarts(shop.server.db, createCartStore(shop.server.db), {
      secure: false,
      trustProxy: false,
    });
    const oldCart = (await old.json('GET', '/api/cart')).body.items[0];
    await shop.server.db.kysely
      .updateTable('visitor_cart')
      .set({ changed_at: Date.now() - 31 * dayMs })
      .where(
        'id',
        'in',
        shop.server.db.kysely.selectFrom('cart_item').select('visitor_cart_id').where('id', '=', oldCart.id),
      )
      .execute();
    expect(await carts.sweep(Date.now())).toBeGreaterThanOrEqual(1);
    expect((await old.json('GET', '/api/cart')).body).toEqual({ items: [] });
    expect(
      await shop.server.db.kysely.selectFrom('cart_item').where('id', '=', oldCart.id).selectAll().execute(),
    ).toEqual([]);
    expect((await recent.json('GET', '/api/cart')).body.items).toHaveLength(1);
  });
});
