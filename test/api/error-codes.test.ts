import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { discountLimits } from '../../src/shared/discounts';
import { type ErrorCode, errorCatalogue } from '../../src/shared/errors';
import { findingLimits, limits, productLimits } from '../../src/shared/limits';
import {
  address,
  Client,
  confirmationToken,
  openRequest,
  orderKey,
  type Reply,
  randomEmail,
  rawRequest,
  withSize,
} from '../support/client';
import { createDiscount, placeWith, quoteWith } from '../support/discounts';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { closedUrl, FakeStripe, fakeStripeKey, fakeWebhookSecret } from '../support/fake-stripe';
import { pngPicture } from '../support/pictures';
import { rowWithoutSize, startTestServer, type TestServer } from '../support/server';
import { requestsDuringShutdown } from '../support/shutdown';
import { setOpenTo } from '../support/visitors';
import { SoftAuthenticator } from '../support/webauthn';

/**
 * Codes no client can bring about on purpose: `server/busy` comes from another program holding the SQLite file
 * (api/second-writer.test.ts brings it about).
 */
const untriggerable = ['server/internal', 'server/busy'] as const satisfies ErrorCode[];
type TriggerableCode = Exclude<ErrorCode, (typeof untriggerable)[number]>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await cardShop?.server.stop();
  await cardShop?.fake.close();
});

/** A shop that takes cards, through a fake of Stripe: started by the first scenario that needs it. */
let cardShop: { server: TestServer; fake: FakeStripe } | undefined;
async function withCards(): Promise<{ server: TestServer; fake: FakeStripe }> {
  if (!cardShop) {
    const fake = await FakeStripe.start();
    const env = {
      STRIPE_SECRET_KEY: fakeStripeKey,
      STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
      STRIPE_API_URL: fake.url,
    };
    cardShop = { server: await startTestServer(env), fake };
    fake.webhookUrl = `${cardShop.server.url}/api/payments/stripe/webhook`;
  }
  return cardShop;
}

/** A rider's card order at the card shop, and the rider; with `paid`, paid through Stripe's webhook. */
async function cardOrder(paid = false): Promise<{ client: Client; number: string }> {
  const { server: shop, fake } = await withCards();
  const client = new Client(shop.url);
  await client.signupConfirmed();
  await client.add('1');
  const { number } = (await client.placeOrder({ paymentMethod: 'card' })).body.order;
  if (paid) await fake.deliver(fake.pay(fake.sessionOf(number)?.id ?? ''));
  return { client, number };
}

/** A rider's order of a bridle at `shop` (bank transfer, or card paid through Stripe), paid and shipped by an owner. */
async function shippedOrder(card = false): Promise<{ client: Client; admin: Client; number: string }> {
  const shop = card ? (await withCards()).server : server;
  let client: Client;
  let number: string;
  if (card) ({ client, number } = await cardOrder(true));
  else {
    client = await signedIn();
    ({ number } = await client.order('1'));
  }
  const admin = new Client(shop.url);
  await admin.signupConfirmed();
  await createRoles(shop.db).grant(admin.user?.email ?? '');
  if (!card) await admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'paid', from: 'placed' });
  await admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'shipped', from: 'paid' });
  return { client, admin, number };
}

/** A return of a shipped order's line, asked by its rider; with `received`, marked received by the owner. */
async function returnOf(card = false, received = false) {
  const { client, admin, number } = await shippedOrder(card);
  const asked = await client.json('POST', `/api/orders/${number}/returns`, {
    lines: [{ line: 1, reason: 'too-small', outcome: 'refund' }],
  });
  const ret = asked.body.return as { number: string };
  if (received) {
    await admin.json('POST', `/api/admin/returns/${ret.number}/receive`, { lines: [{ line: 1, restock: true }] });
  }
  return { client, admin, number, ret: ret.number };
}

/**
 * A reset link of a new rider's, made as the server makes one: the link's token is e-mailed, so the test writes a
 * row of its own with a token it knows (the server stores only the SHA-256).
 */
async function resetLink(): Promise<{ token: string }> {
  const client = await signedIn();
  const token = randomBytes(32).toString('base64url');
  await server.db.kysely
    .insertInto('password_reset')
    .values({
      token_hash: createHash('sha256').update(token).digest('hex'),
      uid: client.user?.uid ?? '',
      created_at: Date.now(),
      expires_at: Date.now() + 60_000,
      used_at: null,
    })
    .execute();
  return { token };
}

async function ownerClient(): Promise<Client> {
  const client = await signedIn();
  await createRoles(server.db).grant(client.user?.email ?? '');
  return client;
}

/** A product of the owner's, hidden or shown, that no other scenario orders: its item number and version. */
async function ownProduct(admin: Client, shown = true): Promise<{ itemid: string; version: number }> {
  const body = { name: 'Test Numnah', details: '', priceCents: 4500, shown, sizes: [{ size: 'Full', stock: 5 }] };
  const { product } = (await admin.json('POST', '/api/admin/products', body)).body;
  return { itemid: product.itemid, version: product.version };
}

/** The owner's form for `own`, as sent back to save it. */
function productForm(own: { version: number }, changes: Record<string, unknown> = {}) {
  return {
    name: 'Test Numnah',
    details: '',
    priceCents: 4500,
    shown: true,
    sizes: [{ size: 'Full', stock: 5 }],
    version: own.version,
    ...changes,
  };
}

/**
 * A passkey's well-formed answer to a challenge of this shop (PUBLIC_URL unset: its origin is http://localhost:0), from
 * an authenticator the shop has never seen.
 */
function passkeyAnswer(challenge = 'AAAA') {
  return new SoftAuthenticator().signIn({ challenge, origin: 'http://localhost:0', rpId: 'localhost' });
}

/** A rider who has signed up and confirmed the address, as every rider who orders has. */
async function signedIn(): Promise<Client> {
  const client = new Client(server.url);
  await client.signupConfirmed();
  return client;
}

/** A new rider's link to confirm the address, as e-mailed; the rider has not opened it. */
async function confirmationLink(): Promise<{ client: Client; token: string }> {
  const client = new Client(server.url);
  const { email } = await client.signup();
  return { client, token: await confirmationToken(email) };
}

/**
 * The catalogue's contract: for every code, one request that the real server answers with exactly that code
 * and the catalogue's status. A code added to the catalogue without a way to bring it about fails to compile
 * here (and the test below checks the table against the catalogue at run time too).
 */
const scenarios: Record<TriggerableCode, () => Promise<Reply>> = {
  'auth/invalid-email': () =>
    new Client(server.url).json('POST', '/api/auth/signup', { email: 'nope', password: 'secret1' }),
  'auth/weak-password': () =>
    new Client(server.url).json('POST', '/api/auth/signup', { email: randomEmail(), password: '12345' }),
  'auth/invalid-password': () =>
    new Client(server.url).json('POST', '/api/auth/login', { email: randomEmail(), password: '1' }),
  'auth/email-already-in-use': async () => {
    const { email } = await signedIn().then((client) => client.user as { email: string });
    return new Client(server.url).json('POST', '/api/auth/signup', { email, password: 'secret1' });
  },
  'auth/invalid-credential': () => new Client(server.url).login(randomEmail(), 'secret1'),
  'auth/too-many-requests': async () => {
    const client = new Client(server.url);
    const email = randomEmail();
    let reply = await client.login(email, 'wrong-1');
    for (let attempt = 0; attempt < 10 && reply.status !== 429; attempt++) reply = await client.login(email, 'wrong-1');
    return reply;
  },
  'auth/requires-recent-login': async () => {
    const client = await signedIn();
    await server.ageSessions(client.user?.uid ?? '', 6);
    return client.json('DELETE', '/api/account');
  },
  'auth/unauthenticated': () => new Client(server.url).json('GET', '/api/cart'),
  'auth/forbidden': async () => (await signedIn()).json('GET', '/api/admin/orders'),
  'auth/reset-link-invalid': () =>
    new Client(server.url).json('POST', '/api/auth/password-reset/check', { token: 'not-a-token' }),
  'auth/reset-link-expired': async () => {
    const { token } = await resetLink();
    await server.db.kysely
      .updateTable('password_reset')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    return new Client(server.url).json('POST', '/api/auth/password-reset/check', { token });
  },
  'auth/reset-link-used': async () => {
    const { token } = await resetLink();
    const client = new Client(server.url);
    await client.json('POST', '/api/auth/password-reset/confirm', { token, password: 'fresh-42' });
    return client.json('POST', '/api/auth/password-reset/check', { token });
  },
  'auth/email-not-confirmed': async () => {
    const client = new Client(server.url);
    await client.signup();
    await client.add('1');
    return client.placeOrder();
  },
  'auth/email-already-confirmed': async () => (await signedIn()).json('POST', '/api/auth/email-confirmation/send'),
  'auth/confirm-link-invalid': async () =>
    new Client(server.url).json('POST', '/api/auth/email-confirmation', {
      token: randomBytes(32).toString('base64url'),
    }),
  'auth/confirm-link-expired': async () => {
    const { client, token } = await confirmationLink();
    await server.db.kysely
      .updateTable('email_confirmation')
      .set({ expires_at: Date.now() - 1 })
      .where('uid', '=', client.user?.uid ?? '')
      .execute();
    return client.json('POST', '/api/auth/email-confirmation', { token });
  },
  'auth/confirm-link-used': async () => {
    const { client, token } = await confirmationLink();
    await client.json('POST', '/api/auth/email-confirmation', { token });
    return client.json('POST', '/api/auth/email-confirmation', { token });
  },
  'passkey/invalid-name': async () =>
    (await signedIn()).json('POST', '/api/account/passkeys', { name: ' ', response: passkeyAnswer() }),
  'passkey/invalid-response': () =>
    new Client(server.url).json('POST', '/api/auth/login/passkey', { response: 'not an answer' }),
  'passkey/challenge-expired': () =>
    new Client(server.url).json('POST', '/api/auth/login/passkey', { response: passkeyAnswer() }),
  'passkey/unknown': async () => {
    const client = new Client(server.url);
    const { challenge } = (await client.json('POST', '/api/auth/login/passkey/options')).body;
    return client.json('POST', '/api/auth/login/passkey', { response: passkeyAnswer(challenge) });
  },
  'passkey/email-not-confirmed': async () => {
    const client = new Client(server.url);
    await client.signup();
    return client.json('POST', '/api/account/passkeys/options');
  },
  'passkey/not-found': async () => (await signedIn()).json('DELETE', '/api/account/passkeys/no-such-passkey'),
  'cart/unknown-item': async () => (await signedIn()).json('POST', '/api/cart', withSize('9')),
  'cart/full': async () => {
    const client = await signedIn();
    for (let row = 0; row < limits.cartMaxRows; row++) await client.add('1');
    return client.json('POST', '/api/cart', withSize('1'));
  },
  'cart/too-many-carts': async () => {
    // A shop of its own, open to everyone: every new visitor's first add from one address makes a cart.
    const open = await startTestServer();
    const network = '127.0.7.1';
    try {
      const owner = new Client(open.url);
      const { email } = await owner.signupConfirmed();
      await createRoles(open.db).grant(email);
      await setOpenTo(owner, 'everyone');
      for (let cart = 0; cart < limits.visitorCartsPerHour; cart++) {
        const made = await new Client(open.url, network).json('POST', '/api/cart', withSize('1'));
        expect(made.status).toBe(201);
      }
      const refused = await new Client(open.url, network).json('POST', '/api/cart', withSize('1'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
      return refused;
    } finally {
      await open.stop();
    }
  },
  'cart/invalid-size': async () => (await signedIn()).json('POST', '/api/cart', { itemid: '1', size: 'XXL' }),
  'cart/sold-out': async () => {
    await server.stock.set(0, { itemid: '4', size: 'XS' });
    return (await signedIn()).json('POST', '/api/cart', { itemid: '4', size: 'XS' });
  },
  'auth/session-not-found': async () => (await signedIn()).json('DELETE', `/api/account/sessions/${randomUUID()}`),
  'stock-alert/unknown-product': async () =>
    (await signedIn()).json('POST', '/api/account/stock-alerts', { itemid: '99999', size: 'Full' }),
  'stock-alert/unknown-size': async () =>
    (await signedIn()).json('POST', '/api/account/stock-alerts', { itemid: '1', size: 'XXL' }),
  'stock-alert/in-stock': async () =>
    (await signedIn()).json('POST', '/api/account/stock-alerts', { itemid: '1', size: 'Full' }),
  'stock-alert/too-many': async () => {
    // Three products of twenty sizes each, all sold out: the fifty-first alert is refused.
    const admin = await ownerClient();
    const sizes = Array.from({ length: 20 }, (_, i) => ({ size: `W${i}`, stock: 0 }));
    const rider = await signedIn();
    let asked = 0;
    for (let product = 0; product < 3; product++) {
      const body = { name: `Wait Numnah ${product}`, details: '', priceCents: 4500, shown: true, sizes };
      const { itemid } = (await admin.json('POST', '/api/admin/products', body)).body.product;
      for (const { size } of sizes) {
        const reply = await rider.json('POST', '/api/account/stock-alerts', { itemid, size });
        if (++asked > limits.stockAlertsMax) return reply;
      }
    }
    throw new Error('Sixty alerts were all taken.');
  },
  'stock-alert/not-found': async () => (await signedIn()).json('DELETE', `/api/account/stock-alerts/${randomUUID()}`),
  'cart/not-found': async () => (await signedIn()).json('DELETE', `/api/cart/${randomUUID()}`),
  'cart/unavailable': async () => {
    const { itemid } = await ownProduct(await ownerClient(), false);
    return (await signedIn()).json('POST', '/api/cart', { itemid, size: 'Full' });
  },
  'order/unavailable': async () => {
    const admin = await ownerClient();
    const own = await ownProduct(admin);
    const client = await signedIn();
    await client.add(own.itemid, 'Full');
    await admin.json('PUT', `/api/admin/products/${own.itemid}`, productForm(own, { shown: false }));
    return client.placeOrder();
  },
  'product/not-found': async () => (await ownerClient()).json('GET', '/api/admin/products/99999'),
  'product/no-page': () => new Client(server.url).json('GET', '/api/products/no-such-product'),
  'product/invalid': async () =>
    (await ownerClient()).json('POST', '/api/admin/products', {
      ...productForm({ version: 1 }),
      version: undefined,
      priceCents: 0,
    }),
  'product/changed': async () => {
    const admin = await ownerClient();
    const own = await ownProduct(admin);
    await admin.json('PUT', `/api/admin/products/${own.itemid}`, productForm(own, { priceCents: 4600 }));
    return admin.json('PUT', `/api/admin/products/${own.itemid}`, productForm(own, { priceCents: 4700 }));
  },
  'settings/invalid': async () => {
    const admin = await ownerClient();
    const { settings } = (await admin.json('GET', '/api/admin/settings')).body;
    return admin.json('PUT', '/api/admin/settings', { ...settings, shop: { ...settings.shop, phone: 'call me' } });
  },
  'settings/changed': async () => {
    const admin = await ownerClient();
    const { settings } = (await admin.json('GET', '/api/admin/settings')).body;
    const taxId = (settings.shop.taxId === 'US-1' ? 'US-2' : 'US-1') as string;
    await admin.json('PUT', '/api/admin/settings', { ...settings, shop: { ...settings.shop, taxId } });
    return admin.json('PUT', '/api/admin/settings', { ...settings, shop: { ...settings.shop, taxId: 'US-3' } });
  },
  'product/unknown-size': async () => {
    const admin = await ownerClient();
    const own = await ownProduct(admin);
    // A size of another product (the bridle's), named as this one's.
    const sizes = [{ size: 'Warmblood', stock: 1, was: 'Warmblood' }];
    return admin.json('PUT', `/api/admin/products/${own.itemid}`, productForm(own, { sizes }));
  },
  'product/not-every-product': async () =>
    (await ownerClient()).json('PUT', '/api/admin/product-order', { itemids: ['2', '1'] }),
  'category/not-found': async () =>
    (await ownerClient()).json('PUT', '/api/admin/categories/no-such', { name: 'X', sizeGuide: null, version: 'v' }),
  'category/invalid': async () => (await ownerClient()).json('POST', '/api/admin/categories', { name: '' }),
  'category/changed': async () =>
    (await ownerClient()).json('PUT', '/api/admin/categories/bridles', { name: 'X', sizeGuide: null, version: 'old' }),
  'category/has-products': async () => {
    const admin = await ownerClient();
    const { categories } = (await admin.json('GET', '/api/admin/categories')).body;
    const bridles = categories.find((c: { slug: string }) => c.slug === 'bridles');
    return admin.json('DELETE', `/api/admin/categories/bridles?version=${bridles.version}`);
  },
  'category/not-every-category': async () =>
    (await ownerClient()).json('PUT', '/api/admin/category-order', { slugs: ['bridles'] }),
  'picture/too-many': async () => {
    const admin = await ownerClient();
    const own = await ownProduct(admin);
    const add = async () =>
      admin.raw('POST', `/api/admin/products/${own.itemid}/pictures`, {
        body: new Uint8Array(await pngPicture(64, 48)),
        headers: { 'content-type': 'image/png' },
      });
    for (let n = 0; n < findingLimits.picturesMax; n += 1) await add();
    return add();
  },
  'picture/invalid': async () =>
    (await ownerClient()).raw('PUT', '/api/admin/products/1/picture', {
      body: 'this is not a picture',
      headers: { 'content-type': 'image/jpeg' },
    }),
  'picture/too-large': async () =>
    (await ownerClient()).raw('PUT', '/api/admin/products/1/picture', {
      body: new Uint8Array(productLimits.pictureMaxBytes + 1),
      headers: { 'content-type': 'image/png' },
    }),
  'stream/too-many': async () => {
    const client = await signedIn();
    const streams = await Promise.all(Array.from({ length: 10 }, () => EventStream.open(client)));
    try {
      return await client.json('GET', '/api/cart/stream');
    } finally {
      for (const stream of streams) stream.close();
    }
  },
  'order/cart-empty': async () => (await signedIn()).placeOrder(),
  'order/cart-changed': async () => {
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ cartItemIds: [] });
  },
  'order/sold-out': async () => {
    const client = await signedIn();
    await client.add('4', 'S');
    await server.stock.set(0, { itemid: '4', size: 'S' });
    return client.placeOrder();
  },
  'order/size-missing': async () => {
    const client = await signedIn();
    await rowWithoutSize(server, client.user?.uid ?? '');
    return client.placeOrder();
  },
  'order/invalid-address': async () => {
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ address: { ...address, city: '' } });
  },
  'order/invalid-payment-method': async () => {
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ paymentMethod: 'card' });
  },
  'order/invalid-shipping-method': async () => {
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ shippingMethod: 'drone' });
  },
  'order/not-shipped': async () => {
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ address: { ...address, country: 'CA', region: 'CA-ON' } });
  },
  'order/shipping-changed': async () => {
    const client = await signedIn();
    await client.add('3');
    return client.placeOrder({ shippingMethod: 'standard', shippingCents: 2400 });
  },
  'places/unknown-country': () => new Client(server.url).json('GET', '/api/places/XX'),
  'order/not-found': async () => (await signedIn()).json('GET', '/api/orders/PF-99999999'),
  // An order not yet paid has no invoice.
  'invoice/not-found': async () => {
    const rider = await signedIn();
    const order = await rider.order('1');
    return rider.json('GET', `/api/orders/${order.number}/invoice`);
  },
  'order/invalid-transition': async () => {
    const client = await signedIn();
    const { number } = await client.order('1');
    await client.json('POST', `/api/orders/${number}/cancel`);
    return client.json('POST', `/api/orders/${number}/cancel`);
  },
  'order/status-changed': async () => {
    const admin = await ownerClient();
    const { number } = await (await signedIn()).order('1');
    await admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'paid', from: 'placed' });
    return admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'cancelled', from: 'placed' });
  },
  // A bridle ($302.99) with a code that leaves 49 cents, by card: below the least Stripe charges.
  'order/card-minimum': async () => {
    const { server: shop } = await withCards();
    const admin = new Client(shop.url);
    const { email } = await admin.signupConfirmed();
    await createRoles(shop.db).grant(email);
    const code = (await createDiscount(admin, { gives: { kind: 'amount', amountCents: 30250 } })).code;
    const client = new Client(shop.url);
    await client.signupConfirmed();
    await client.add('1');
    return client.placeOrder({ paymentMethod: 'card', delivery: 'collection', discountCode: code });
  },
  'order/discount-unavailable': async () => {
    const code = (await createDiscount(await ownerClient(), { maxUses: 1 })).code;
    const first = await signedIn();
    await first.add('1');
    await placeWith(first, code);
    const client = await signedIn();
    await client.add('1');
    return client.placeOrder({ discountCode: code });
  },
  'discount/invalid': async () => {
    const client = await signedIn();
    return quoteWith(client, 'NoSuchCode');
  },
  'discount/expired': async () =>
    quoteWith(await signedIn(), (await createDiscount(await ownerClient(), { lastDay: '2020-01-31' })).code),
  'discount/minimum': async () =>
    quoteWith(await signedIn(), (await createDiscount(await ownerClient(), { minSubtotalCents: 100 })).code),
  'discount/used-up': async () => {
    const code = (await createDiscount(await ownerClient(), { maxUses: 1 })).code;
    const first = await signedIn();
    await first.add('1');
    await placeWith(first, code);
    return quoteWith(await signedIn(), code);
  },
  'discount/already-used': async () => {
    const code = (await createDiscount(await ownerClient(), { oncePerRider: true })).code;
    const client = await signedIn();
    await client.add('1');
    await placeWith(client, code);
    return quoteWith(client, code);
  },
  'discount/too-many-attempts': async () => {
    const client = await signedIn();
    for (let i = 0; i < discountLimits.guessesPerAccount; i++) await quoteWith(client, `Guess${i}`);
    return quoteWith(client, 'GuessAgain');
  },
  'discount/not-found': async () =>
    (await ownerClient()).json('PUT', '/api/admin/discounts/nothing/enabled', { enabled: false }),
  'discount/form-invalid': async () =>
    (await ownerClient()).json('POST', '/api/admin/discounts', { code: 'no!', gives: { kind: 'free-shipping' } }),
  'discount/code-taken': async () => {
    const owner = await ownerClient();
    const { code } = await createDiscount(owner);
    return owner.json('POST', '/api/admin/discounts', {
      code: code.toUpperCase(),
      gives: { kind: 'free-shipping' },
      minSubtotalCents: null,
      firstDay: null,
      lastDay: null,
      maxUses: null,
      oncePerRider: false,
    });
  },
  'outbox/not-found': async () => (await ownerClient()).json('POST', `/api/admin/outbox/${randomUUID()}/retry`),
  'outbox/not-retryable': async () => {
    const admin = await ownerClient();
    await (await signedIn()).order('1');
    const { emails } = (await admin.json('GET', '/api/admin/outbox?state=waiting')).body;
    return admin.json('POST', `/api/admin/outbox/${emails[0].id}/retry`);
  },
  'order/too-many': async () => {
    const client = await signedIn();
    for (let i = 0; i < limits.ordersPerHour; i++) await client.order('1');
    await client.add('1');
    return client.placeOrder({ idempotencyKey: orderKey() });
  },
  'request/invalid-json': async () =>
    (await signedIn()).raw('POST', '/api/cart', {
      body: '{"itemid":',
      headers: { 'content-type': 'application/json' },
    }),
  'request/invalid-body': async () => (await signedIn()).json('POST', '/api/cart', { ...withSize('1'), priceCents: 1 }),
  'request/body-too-large': async () =>
    (await signedIn()).json('POST', '/api/cart', { ...withSize('1'), pad: 'x'.repeat(17 * 1024) }),
  'request/unsupported-media-type': async () =>
    (await signedIn()).raw('POST', '/api/cart', { body: '{"itemid":"1"}', headers: { 'content-type': 'text/plain' } }),
  'request/cross-origin': async () =>
    (await signedIn()).json('POST', '/api/cart', withSize('1'), { origin: 'https://evil.example' }),
  'request/not-found': () => new Client(server.url).json('GET', '/api/nowhere'),
  'request/header-too-large': () =>
    new Client(server.url).raw('GET', '/api/cart', { headers: { cookie: `crumbs=${'x'.repeat(20_000)}` } }),
  'request/malformed': () => rawRequest(server.url, 'NOT HTTP\r\n\r\n'),
  'request/too-slow': async () => {
    // A log-in whose body says 100 bytes and brings 10, then nothing more: cut once it falls behind the pace.
    const { socket, answer } = openRequest(
      server.url,
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"',
    );
    const reply = await answer;
    socket.destroy();
    return reply;
  },
  'request/invalid-query': async () => (await signedIn()).json('GET', '/api/orders?before=0'),
  'payment/not-awaiting': async () => {
    const client = new Client((await withCards()).server.url);
    await client.signupConfirmed();
    const { number } = await client.order('1');
    return client.json('POST', `/api/orders/${number}/pay`);
  },
  'payment/busy': async () => {
    const { client, number } = await cardOrder();
    // Another server is talking to Stripe about this order's payment right now.
    await (await withCards()).server.db.kysely
      .updateTable('shop_order')
      .set({ card_lease_until: Date.now() + 60_000 })
      .where('number', '=', Number(number.slice(3)))
      .execute();
    return client.json('POST', `/api/orders/${number}/pay`);
  },
  'payment/in-progress': async () => {
    const { client, number } = await cardOrder();
    const { fake } = await withCards();
    fake.pay(fake.sessionOf(number)?.id ?? '');
    return client.json('POST', `/api/orders/${number}/cancel`);
  },
  'payment/refund-failed': async () => {
    const { number } = await cardOrder(true);
    const { server: shop, fake } = await withCards();
    const owner = new Client(shop.url);
    await owner.signup();
    await createRoles(shop.db).grant(owner.user?.email ?? '');
    fake.refundRefusal = 'This charge is disputed.';
    try {
      return await owner.json('POST', `/api/admin/orders/${number}/moves`, { to: 'cancelled', from: 'paid' });
    } finally {
      fake.refundRefusal = null;
    }
  },
  'return/not-found': async () => (await ownerClient()).json('GET', '/api/admin/returns/RET-2000-99999'),
  'return/order-not-found': async () => (await signedIn()).json('GET', '/api/orders/PF-99999/returns'),
  'return/closed': async () => {
    const client = await signedIn();
    const { number } = await client.order('1');
    return client.json('POST', `/api/orders/${number}/returns`, {
      lines: [{ line: 1, reason: 'damaged', outcome: 'refund' }],
    });
  },
  'return/unknown-line': async () => {
    const { client, number } = await shippedOrder();
    return client.json('POST', `/api/orders/${number}/returns`, {
      lines: [{ line: 9, reason: 'damaged', outcome: 'refund' }],
    });
  },
  'return/line-taken': async () => {
    const { client, number } = await returnOf();
    return client.json('POST', `/api/orders/${number}/returns`, {
      lines: [{ line: 1, reason: 'damaged', outcome: 'refund' }],
    });
  },
  'return/unknown-size': async () => {
    const { client, number } = await shippedOrder();
    return client.json('POST', `/api/orders/${number}/returns`, {
      lines: [{ line: 1, reason: 'too-small', outcome: 'exchange', size: 'Huge' }],
    });
  },
  'return/size-sold-out': async () => {
    const admin = await ownerClient();
    const body = {
      name: 'Test Numnah',
      details: '',
      priceCents: 4500,
      shown: true,
      sizes: [
        { size: 'Full', stock: 5 },
        { size: 'Cob', stock: 0 },
      ],
    };
    const { product } = (await admin.json('POST', '/api/admin/products', body)).body;
    const client = await signedIn();
    await client.add(product.itemid, 'Full');
    const { number } = (await client.placeOrder()).body.order;
    await admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'paid', from: 'placed' });
    await admin.json('POST', `/api/admin/orders/${number}/moves`, { to: 'shipped', from: 'paid' });
    return client.json('POST', `/api/orders/${number}/returns`, {
      lines: [{ line: 1, reason: 'too-small', outcome: 'exchange', size: 'Cob' }],
    });
  },
  'return/invalid': async () => {
    const { client, number } = await shippedOrder();
    return client.json('POST', `/api/orders/${number}/returns`, { lines: [] });
  },
  'return/state-changed': async () => {
    const { admin, ret } = await returnOf();
    await admin.json('POST', `/api/admin/returns/${ret}/refuse`, { reason: 'Worn.' });
    return admin.json('POST', `/api/admin/returns/${ret}/refuse`, { reason: 'Worn.' });
  },
  'return/not-received': async () => {
    const { admin, ret } = await returnOf();
    return admin.json('POST', `/api/admin/returns/${ret}/refund`, { refundShipping: false });
  },
  'return/wrong-lines': async () => {
    const { admin, ret } = await returnOf();
    return admin.json('POST', `/api/admin/returns/${ret}/receive`, { lines: [{ line: 9, restock: true }] });
  },
  'return/refund-busy': async () => {
    const { admin, number, ret } = await returnOf(true, true);
    // Another server talks to Stripe about this order's payment right now.
    await (await withCards()).server.db.kysely
      .updateTable('shop_order')
      .set({ card_lease_until: Date.now() + 60_000 })
      .where('number', '=', Number(number.slice(3)))
      .execute();
    return admin.json('POST', `/api/admin/returns/${ret}/refund`, { refundShipping: false });
  },
  'return/refund-failed': async () => {
    const { admin, ret } = await returnOf(true, true);
    const { fake } = await withCards();
    fake.refundRefusal = 'This charge is disputed.';
    try {
      return await admin.json('POST', `/api/admin/returns/${ret}/refund`, { refundShipping: false });
    } finally {
      fake.refundRefusal = null;
    }
  },
  'payment/invalid-signature': async () =>
    new Client((await withCards()).server.url).raw('POST', '/api/payments/stripe/webhook', {
      body: '{"id":"evt_1"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    }),
  'server/payments-unavailable': async () => {
    const away = await startTestServer({
      STRIPE_SECRET_KEY: fakeStripeKey,
      STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
      STRIPE_API_URL: await closedUrl(),
    });
    try {
      const rider = new Client(away.url);
      await rider.signupConfirmed();
      await rider.add('1');
      const placed = await rider.placeOrder({ paymentMethod: 'card' });
      return await rider.json('POST', `/api/orders/${placed.body.order.number}/pay`);
    } finally {
      await away.stop();
    }
  },
  'server/too-many-streams': async () => {
    const small = await startTestServer({ MAX_LIVE_STREAMS: '1' });
    const client = new Client(small.url);
    await client.signup();
    const stream = await EventStream.open(client);
    try {
      return await new Client(small.url).signup().then(() => client.json('GET', '/api/cart/stream'));
    } finally {
      stream.close();
      await small.stop();
    }
  },
  'server/unavailable': async () => {
    const closing = await startTestServer();
    try {
      const client = new Client(closing.url);
      await client.signup();
      const [, answer] = await requestsDuringShutdown(closing, client, ['/api/cart']);
      if (!answer) throw new Error('no answer during the shutdown');
      const headers = new Headers({ 'content-type': /^content-type: (.*)$/im.exec(answer.head)?.[1] ?? '' });
      return { status: answer.status, headers, body: JSON.parse(answer.body) };
    } finally {
      await closing.stop();
    }
  },
};

describe('every error code of the catalogue is answered by the server', () => {
  it('has a scenario for each code that a client can bring about', () => {
    expect(Object.keys(scenarios).sort()).toEqual(
      Object.keys(errorCatalogue)
        .filter((code) => !(untriggerable as readonly string[]).includes(code))
        .sort(),
    );
  });

  it.each(Object.keys(scenarios) as TriggerableCode[])('%s', async (code) => {
    expectError(await scenarios[code](), errorCatalogue[code].status, code);
  });

  it('gives every code a 4xx or 5xx status and a message', () => {
    for (const [code, { status, message }] of Object.entries(errorCatalogue)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(code.startsWith('server/') ? status >= 500 : status < 500, code).toBe(true);
      expect(message.length, code).toBeGreaterThan(0);
    }
  });
});
