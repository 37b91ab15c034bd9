import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstCatalogue as catalogue } from '../../src/server/db/migrations/0009-owners-catalogue';
import { type Client, confirmedRider, todaysShipping as shopShipping } from '../support/client';
import { expectError } from '../support/expect-error';
import { atTheYard, untaxed } from '../support/money';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const priceOf = (itemid: string) => catalogue.find((p) => p.itemid === itemid)?.priceCents ?? Number.NaN;

/** A rider with item 3 in the cart: below the free-shipping threshold. */
async function riderWithCart(): Promise<Client> {
  const client = await confirmedRider(server.url);
  await client.add('3');
  expect(priceOf('3')).toBeLessThan(shopShipping.freeFromCents);
  return client;
}

describe('delivery, apart from payment', () => {
  it('charges no shipping for an order paid on collection, which is collected', async () => {
    const client = await riderWithCart();
    const reply = await client.placeOrder({ paymentMethod: 'collection' });
    expect(reply.status).toBe(201);
    expect(reply.body.order.money).toMatchObject({
      subtotalCents: priceOf('3'),
      shippingCents: 0,
      totalCents: priceOf('3'),
    });
    // The delivery its payment method goes with is left out.
    expect(reply.body.order).not.toHaveProperty('delivery');
  });

  it('lets a rider collect an order paid by bank transfer, without shipping, and the order says so', async () => {
    const client = await riderWithCart();
    const { money } = (await client.json('GET', '/api/checkout/quote?delivery=collection')).body;
    expect(money).toEqual(
      untaxed({ subtotalCents: priceOf('3'), shippingCents: 0, shippingMethod: atTheYard, totalCents: priceOf('3') }),
    );
    const reply = await client.placeOrder({
      paymentMethod: 'bank-transfer',
      delivery: 'collection',
      totalCents: money.totalCents,
    });
    expect(reply.status).toBe(201);
    expect(reply.body.order).toMatchObject({
      delivery: 'collection',
      money: { shippingCents: 0, totalCents: priceOf('3') },
    });
    const read = await client.json('GET', `/api/orders/${reply.body.order.number}`);
    expect(read.body.order).toEqual(reply.body.order);
  });

  it('ships by default, at the shop rate, and quotes the same', async () => {
    const client = await riderWithCart();
    const { money } = (await client.json('GET', '/api/checkout/quote')).body;
    expect(money.shippingCents).toBe(shopShipping.flatCents);
    const reply = await client.placeOrder({ delivery: 'shipping', totalCents: money.totalCents });
    expect(reply.status).toBe(201);
    expect(reply.body.order).not.toHaveProperty('delivery');
  });

  it("refuses 'Pay on collection' with shipping, and a delivery that is not one", async () => {
    const client = await riderWithCart();
    const refused = await client.placeOrder({ paymentMethod: 'collection', delivery: 'shipping' });
    expectError(refused, 400, 'order/invalid-payment-method');
    expect(refused.body.message).toBe("Pay on collection goes only with 'Collect at the yard'.");
    expectError(await client.placeOrder({ delivery: 'drone' }), 400, 'request/invalid-body');
    expectError(await client.json('GET', '/api/checkout/quote?delivery=drone'), 400, 'request/invalid-query');
    expect(await client.cart()).toHaveLength(1);
  });
});
