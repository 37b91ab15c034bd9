import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientErrors } from './client-errors';

// Node's deadlines for a request (server.ts) take seconds; a server of its own with deadlines of a few hundred
// milliseconds shows what a client that misses them is answered.
const server = createServer({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 }, (req) =>
  req.resume(),
);
server.on('clientError', answerClientErrors({ 'X-Content-Type-Options': 'nosniff' }));
afterEach(() => new Promise((done) => server.close(done)));

/** Sends `text` and leaves the connection open; answers what the server sent before it closed the connection. */
async function send(text: string): Promise<string> {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  socket.write(text);
  await new Promise((closed) => socket.on('close', closed));
  return answer;
}

describe('answerClientErrors', () => {
  it('answers headers that do not all come in time with 408 request/too-slow, in our error shape', async () => {
    const answer = await send('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'request/too-slow' });
  });

  it('answers a whole request that does not come in time with 408 request/too-slow', async () => {
    const answer = await send('POST /api/cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('"code":"request/too-slow"');
  });
});
