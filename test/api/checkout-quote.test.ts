import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { Client, confirmedRider, todaysShipping as shopShipping } from '../support/client';
import { expectError } from '../support/expect-error';
import { standard, untaxed } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const priceOf = (itemid: string) => catalogue.find((p) => p.itemid === itemid)?.priceCents ?? Number.NaN;

const rider = () => confirmedRider(server.url);

describe("the checkout's quote", () => {
  it('is for riders with a session only', async () => {
    expectError(await new Client(server.url).json('GET', '/api/checkout/quote'), 401, 'auth/unauthenticated');
  });

  it('gives the cart as the server holds it and what the order of it costs; the order charges exactly that', async () => {
    const client = await rider();
    await client.add('3');
    const quote = (await client.json('GET', '/api/checkout/quote')).body;
    expect(quote).toEqual({
      items: await client.cart(),
      money: untaxed({
        subtotalCents: priceOf('3'),
        shippingCents: shopShipping.flatCents,
        shippingMethod: standard,
        totalCents: priceOf('3') + shopShipping.flatCents,
      }),
      // The methods for the address (a new shop's one zone), each priced for this cart; the money is the chosen one's.
      shipping: {
        options: [{ id: 'standard', name: 'Standard', cents: shopShipping.flatCents, estimate: '' }],
        chosen: 'standard',
      },
    });
    const placed = await client.placeOrder({ totalCents: quote.money.totalCents });
    expect(placed.status).toBe(201);
    expect(placed.body.order.money).toEqual(quote.money);
  });

  it('refuses an order whose total is not the quote the page showed', async () => {
    const client = await rider();
    await client.add('1');
    await client.add('6');
    const { money } = (await client.json('GET', '/api/checkout/quote')).body;
    expect(money.shippingCents).toBe(0);
    expectError(await client.placeOrder({ totalCents: money.totalCents + 1 }), 409, 'order/cart-changed');
    expect(await client.cart()).toHaveLength(2);
  });
});
