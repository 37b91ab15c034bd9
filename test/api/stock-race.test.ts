import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Client } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';
import { raceForTheLastUnits, ridersWantingOneSize } from '../support/stock-race';

/** Never below zero, on one server (docs/decisions/0022-stock.md); two servers on PostgreSQL: multi-instance/. */
let server: TestServer;
let riders: Client[];
beforeAll(async () => {
  server = await startTestServer();
  riders = await ridersWantingOneSize([server.url], 50);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('fifty riders, five left', () => {
  it.each([1, 2, 3])('round %i: exactly five orders, stock 0, forty-five order/sold-out, no 5xx', async () => {
    await raceForTheLastUnits(riders, server.stock, 5);
  });
});
