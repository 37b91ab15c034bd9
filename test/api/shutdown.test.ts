import { expect, it } from 'vitest';
import { errorCatalogue } from '../../src/shared/errors';
import { Client } from '../support/client';
import { startTestServer } from '../support/server';
import { requestsDuringShutdown } from '../support/shutdown';

it('turns new API requests away with 503 server/unavailable once a graceful shutdown has begun', async () => {
  const server = await startTestServer();
  try {
    const client = new Client(server.url);
    await client.signup();
    const [stream, health, api, ...rest] = await requestsDuringShutdown(server, client, ['/healthz', '/api/cart']);
    expect(rest).toEqual([]);
    expect(stream?.status).toBe(200);
    expect(health?.status).toBe(503);
    expect(health?.body).toContain('{"status":"closing"');
    expect(api?.status).toBe(503);
    expect(api?.head).toMatch(/^connection: close$/im);
    expect(api?.head).toMatch(/^cache-control: no-store$/im);
    expect(JSON.parse(api?.body ?? '')).toEqual({
      code: 'server/unavailable',
      message: errorCatalogue['server/unavailable'].message,
    });
  } finally {
    await server.stop();
  }
});
