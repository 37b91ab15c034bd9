import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { errorCatalogue } from '../../src/shared/errors';
import { Client } from '../support/client';
import { startTestServer } from '../support/server';

interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Splits what came back on one keep-alive connection into its responses (bodies left as sent; they hold no status line). */
function splitResponses(text: string): RawResponse[] {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part.startsWith('HTTP/1.1 '))
    .map((part) => {
      const end = part.indexOf('\r\n\r\n');
      return { status: Number(part.slice(9, 12)), head: part.slice(0, end), body: part.slice(end + 4) };
    });
}

it('turns new API requests away with 503 server/unavailable once a graceful shutdown has begun', async () => {
  const server = await startTestServer();
  try {
    const client = new Client(server.url);
    await client.signup();
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (data) => {
      text += data;
    });
    const socketClosed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.on('connect', resolve));
    const head = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${client.cookieHeader}\r\n\r\n`;

    // A live stream keeps this connection busy, so the shutdown cannot close it as idle.
    socket.write(head('/api/cart/stream'));
    for (let waited = 0; !text.includes('event: snapshot'); waited += 10) {
      if (waited > 5000) throw new Error(`no snapshot on the stream: ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const closed = server.close();
    // The shutdown ends the stream; requests that arrive on the connection after that are turned away.
    socket.write(head('/healthz') + head('/api/cart'));
    await Promise.race([
      socketClosed,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`connection still open: ${text}`)), 5000)),
    ]);
    await closed;

    const [stream, health, api, ...rest] = splitResponses(text);
    expect(rest).toEqual([]);
    expect(stream?.status).toBe(200);
    expect(health?.status).toBe(503);
    expect(health?.body).toContain('{"status":"closing"}');
    expect(api?.status).toBe(503);
    expect(api?.head).toMatch(/^connection: close$/im);
    expect(api?.head).toMatch(/^cache-control: no-store$/im);
    expect(JSON.parse(api?.body ?? '')).toEqual({
      code: 'server/unavailable',
      message: errorCatalogue['server/unavailable'].message,
    });
    socket.destroy();
  } finally {
    await server.stop();
  }
});
