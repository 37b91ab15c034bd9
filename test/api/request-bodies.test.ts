import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { requestPace } from '../../src/server/http/input';
import { endpoints } from '../../src/shared/api';
import { Client, openRequest, type Reply } from '../support/client';
import { expectError } from '../support/expect-error';
import { jpegPicture } from '../support/pictures';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

// Request bodies that never arrive in full (docs/SECURITY.md, "Limits"): a client that hangs up halfway is no error
// of the server's, and one that crawls is cut at its pace, holding nothing the others need.

const token = 'metrics-token-0123456789abcdef';
let server: TestServer;
let owner: Client;
let rider: Client;
let picture: Buffer;
beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: token }, { captureLog: true });
  owner = new Client(server.url);
  await createRoles(server.db).grant((await owner.signupConfirmed()).email);
  rider = new Client(server.url);
  await rider.signupConfirmed();
  picture = await jpegPicture();
});
afterAll(() => server.stop());

interface Line {
  level: string;
  msg: string;
  status?: number;
  path?: string;
}
const linesSince = (logged: number) => server.logLines.slice(logged).map((line) => JSON.parse(line) as Line);

const scrape = async () =>
  String((await new Client(server.url).raw('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } })).body);

/** The sum of the request counts whose series has every label in `labels`. */
function requestCount(text: string, ...labels: string[]): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_request_duration_seconds_count{') && labels.every((l) => line.includes(l)))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** A request whose head says `length` bytes of body, and the first bytes of that body. */
interface Unfinished {
  method: string;
  path: string;
  length: number;
  headers: Record<string, string>;
  start: string | Buffer;
}

/**
 * Sends the request's head, asking to go ahead (`Expect: 100-continue`, as curl does for an upload), and once the
 * server has the request (its `100 Continue`), the first bytes of the body; the rest is the test's.
 */
async function begin({ method, path, length, headers, start }: Unfinished) {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Length: ${length}`, 'Expect: 100-continue']
    .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  const { socket, answer } = openRequest(server.url, `${head}\r\n\r\n`);
  await new Promise((resolve) => socket.once('data', resolve));
  await new Promise((resolve) => socket.write(start, resolve));
  return { socket, answer };
}

const json = { 'Content-Type': 'application/json' };
const cookieOf = (client: Client) => ({ Cookie: client.cookieHeader });
const pictureRoute = '/api/admin/products/1/picture';

/** A picture upload of which the first thousand bytes come. */
const unfinishedPicture = (): Unfinished => ({
  method: 'PUT',
  path: pictureRoute,
  length: picture.length,
  headers: { 'Content-Type': 'image/jpeg', ...cookieOf(owner) },
  start: picture.subarray(0, 1000),
});

/** Requests of every kind that reads a body, each cut short: most of its body never comes. */
const unfinished = (): Unfinished[] => [
  { method: 'POST', path: endpoints.signUp.path, length: 100, headers: json, start: '{"email":"rider@exa' },
  { method: 'POST', path: endpoints.logIn.path, length: 100, headers: json, start: '{"email":"rider@exa' },
  { method: 'POST', path: endpoints.confirmEmail.path, length: 100, headers: json, start: '{"token":"abc' },
  {
    method: 'POST',
    path: endpoints.stripeWebhook.path,
    length: 400,
    headers: { ...json, 'Stripe-Signature': 't=1,v1=00' },
    start: '{"id":"ev',
  },
  { method: 'POST', path: endpoints.addToCart.path, length: 100, headers: { ...json, ...cookieOf(rider) }, start: '{' },
  {
    method: 'POST',
    path: endpoints.placeOrder.path,
    length: 300,
    headers: { ...json, ...cookieOf(rider) },
    start: '{',
  },
  unfinishedPicture(),
];

const uploadInFull = () =>
  owner.raw('PUT', pictureRoute, { body: new Uint8Array(picture), headers: { 'content-type': 'image/jpeg' } });

describe('a client that hangs up halfway through its body', () => {
  it('is no server error: nothing answered, no error logged, no 500, each counted as 499 by its route', async () => {
    const before = await scrape();
    const logged = server.logLines.length;
    // Every kind of request, hung up on in each way a client goes: closing (FIN), half-closing, resetting (RST).
    const hangUps: ((socket: Socket) => void)[] = [
      (socket) => socket.destroy(),
      (socket) => socket.end(),
      (socket) => socket.resetAndDestroy(),
    ];
    const answers: Promise<Reply>[] = [];
    for (const hangUp of hangUps) {
      for (const request of unfinished()) {
        const { socket, answer } = await begin(request);
        hangUp(socket);
        answers.push(answer);
      }
    }
    for (const answer of await Promise.all(answers)) expect(answer.status, 'nothing is sent back').toBeNaN();

    const total = answers.length;
    const requests = () => linesSince(logged).filter((line) => line.msg === 'request');
    await until(() => requests().length === total, 10_000, `${total} requests logged`);
    const lines = linesSince(logged);
    expect(lines.filter((line) => line.level !== 'info' && line.level !== 'debug')).toEqual([]);
    expect(requests().filter((line) => line.status !== 499)).toEqual([]);
    expect(new Set(requests().map((line) => line.path)).size).toBe(unfinished().length);

    const after = await scrape();
    expect(after).not.toMatch(/status="5\d\d"/);
    expect(requestCount(after, 'status="499"') - requestCount(before, 'status="499"')).toBe(total);
    expect(requestCount(after, 'route="/api/auth/login"', 'status="499"')).toBe(hangUps.length);
    // An order whose client hung up was not refused: it never came.
    expect(after).not.toMatch(/piaffe_orders_refused_total\{/);
  });
});

describe('a body that crawls', () => {
  it('is answered 408 request/too-slow once it falls behind the pace; a picture in full meanwhile is made', async () => {
    const logged = server.logLines.length;
    // Six picture uploads (more than the four the queue lets wait) and a log-in: a first thousand bytes, then a
    // byte every 200 ms, far below the pace.
    const log = {
      method: 'POST',
      path: endpoints.logIn.path,
      length: 2000,
      headers: json,
      start: `{"email":"${'x'.repeat(990)}`,
    };
    const crawling = await Promise.all(
      [...Array.from({ length: 6 }, unfinishedPicture), log].map(async (request) => {
        const started = performance.now();
        const { socket, answer } = await begin(request);
        let sent = 0;
        const trickle = setInterval(() => {
          if (sent++ < 100 && socket.writable) socket.write('x');
        }, 200);
        return answer
          .finally(() => clearInterval(trickle))
          .then((reply) => ({ reply, ms: performance.now() - started }));
      }),
    );

    // An upload still coming holds no place in the pictures' queue: a picture sent in full meanwhile is made.
    expect((await uploadInFull()).status).toBe(200);

    for (const { reply, ms } of await Promise.all(crawling)) {
      expectError(reply, 408, 'request/too-slow');
      expect(reply.headers.get('connection')).toBe('close');
      expect(ms).toBeGreaterThanOrEqual(requestPace.graceMs - 50);
    }
    expect(linesSince(logged).filter((line) => line.level !== 'info' && line.level !== 'debug')).toEqual([]);
    expect((await uploadInFull()).status).toBe(200);
  });
});
