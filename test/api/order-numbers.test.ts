import { afterAll, beforeAll, it } from 'vitest';
import { raceForOrderNumbers } from '../support/order-numbers';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

it('numbers orders placed at once without a gap, while units that took a number roll back', async () => {
  await raceForOrderNumbers([server.url], [server.db], 12);
}, 60_000);
