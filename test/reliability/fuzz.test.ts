import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/shared/api';
import { type ErrorCode, errorCatalogue, errorExtras } from '../../src/shared/errors';
import { pages } from '../../src/shared/pages';
import { type ChildServer, startChild } from '../support/child-server';
import { Client } from '../support/client';
import { createDatabase, stockUp, type TestDatabase } from '../support/test-database';

/**
 * Property-based fuzzing of every route with hostile requests. Whatever comes in, the server answers
 * below 500, API errors have the {code, message} shape, it stays up, and its memory stays bounded.
 */
const batches = 1000;
const perBatch = 10; // 10,000 requests in all, each batch sent at once
const warmUpBatches = 100;
/**
 * Growth of the server's live memory (JavaScript heap plus buffers, measured right after a full garbage
 * collection) allowed between the end of the warm-up and the end of the run. A leak of 1 KiB per request
 * would show as about 9 MiB.
 */
const maxLiveGrowthMiB = 8;

let database: TestDatabase;
let server: ChildServer;
/**
 * Sessions the requests may carry: two live members, owners of the shop, with an order each, so that requests reach
 * the handlers behind the session and the owner's role.
 */
const members: Client[] = [];
let itemIds: string[] = [];

beforeAll(async () => {
  database = await createDatabase();
  // The server's log is kept, so that a 5xx names the error behind it (the log lines of level error and above).
  server = await startChild({ database, inspect: true, keepLogs: true });
  await stockUp(database);
  for (let i = 0; i < 2; i++) {
    const member = await newMember();
    itemIds.push((await member.add('2')).id);
    members.push(member);
  }
});

async function newMember(): Promise<Client> {
  const member = new Client(server.url);
  const { uid } = await member.signupConfirmed();
  await database.query("insert into user_role (uid, role) values ($1, 'owner')", [uid]);
  await member.order('1');
  itemIds.push((await member.add('1')).id);
  return member;
}
afterAll(async () => {
  await server?.kill('SIGKILL');
  await database?.drop();
});

/**
 * Requests that carry a member's cookie may log the member out, change the password or delete the account;
 * a fresh member takes the place of one whose session has ended, so later requests still get past the session.
 */
async function keepMembersLoggedIn() {
  for (const [i, member] of members.entries()) {
    if ((await member.session()).status === 200) continue;
    members[i] = await newMember();
  }
  itemIds = itemIds.slice(-8);
}

/** Every route there is: the API's endpoints (src/shared/api.ts), the pages (src/shared/pages.ts), and the rest. */
const routes: Array<[string, string]> = [
  ...Object.values(endpoints).map((endpoint): [string, string] => [endpoint.method, endpoint.path]),
  ...Object.values(pages).map((page): [string, string] => ['GET', page.path]),
  ['GET', '/healthz'],
  ['GET', '/'],
];

const hostileStrings = fc.oneof(
  fc.constantFrom(
    "' OR '1'='1",
    "'; DROP TABLE cart_item; --",
    '" OR ""="',
    '1; select pg_sleep(5)',
    "1' union select id, email, 1, 1, 1, 1 from user --",
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
    '{{7*7}}${7*7}',
    '../../../../etc/passwd',
    '%00',
    '\u0000',
    'a\u0000b@example.com',
    '\uD800',
    '\uFFFF\uFFFE',
    '🐴'.repeat(20),
    'ḁ̷̧̛̞̺͓͖̖̤̦̮̬̯̩̗̪̣̘̍̉̓̂̈́̾͋̍̍̄̉̚ͅ',
    '\u202Eevil',
    'rider@example.com',
    'RIDER@EXAMPLE.COM',
    'secret1',
    '__proto__',
    'constructor',
    '1',
    '8',
    '0',
    '-1',
    '1e309',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 4 }).map((s) => s.repeat(4000)), // huge
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileStrings,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileStrings, fc.constantFrom('email', 'password', 'itemid', 'uid', 'id')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Bodies shaped like the API's, with hostile values, and bodies that are not JSON at all. */
const body = fc.oneof(
  fc.constant(undefined),
  fc
    .record(
      { email: jsonValue, password: jsonValue, itemid: jsonValue, uid: jsonValue, price: jsonValue },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v) ?? 'undefined'),
  fc.tuple(jsonValue, fc.nat()).map(([v, cut]) => {
    const text = JSON.stringify({ email: v, password: 'secret1' });
    return text.slice(0, cut % Math.max(1, text.length)); // truncated
  }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)), // deep nesting
  fc.integer({ min: 1, max: 5000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 16 * 1024 - 16, max: 200_000 }).map((n) => `{"itemid":"${'x'.repeat(n)}"}`), // oversized
  hostileStrings,
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/jsonx',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json, text/plain',
    '',
  ),
  fc.constant(undefined),
  fc.constant(['application/json', 'application/json']), // duplicated header
  fc.constant(['application/json', 'text/html']),
);

/** Header values must be bytes 0x20-0x7e and 0x80-0xff; anything else is not HTTP, and the client refuses it. */
const headerText = fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '?'));

type CookieChoice = { member: number } | { text: string } | { many: string[] } | undefined;
const cookie: fc.Arbitrary<CookieChoice> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 1 }).map((member) => ({ member })),
  headerText.map((text) => ({ text: `piaffe.session_token=${text}` })),
  fc.constantFrom(
    { text: 'piaffe.session_token=' },
    { text: '=;;==; ;piaffe.session_token' },
    { text: 'piaffe.session_token=abc.def; piaffe.session_token=ghi.jkl' },
    { text: `piaffe.session_token=${'A'.repeat(4000)}` },
    { text: 'piaffe.session_token=%E0%A4%A' },
    { text: 'piaffe.device=AAAAAAAAAAAAAAAAAAAAAA.xxxx' },
    { text: `piaffe.device=${'z'.repeat(3000)}` },
  ),
  fc.array(headerText, { minLength: 2, maxLength: 3 }).map((many) => ({ many })),
);

/** A path segment: lone surrogates (which no URL can carry) become U+FFFD, everything else is percent-encoded. */
const encode = (s: string) => encodeURIComponent((s as string & { toWellFormed(): string }).toWellFormed());

const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...routes.map(([, p]) => p)) },
  fc.string({ maxLength: 30 }).map((s) => `/api/cart/${encode(s)}`),
  hostileStrings.map((s) => `/api/${encode(s.slice(0, 200))}`),
  fc.constantFrom(
    '/api/cart/%00',
    '/api/cart/..%2F..%2Fapi%2Faccount',
    '/api/cart/1?uid=someone',
    '/api/cart/?id=1',
    '/api//cart',
    '/api/cart/stream/../../account',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/assets/%2e%2e%2fpackage.json',
    '/api/auth/login?email=a@b.co',
    '/api',
    '/api/',
  ),
);

const requestArb = fc.record({
  route: fc.nat(),
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  ),
  path,
  body,
  contentType,
  cookie,
  origin: fc.constantFrom(undefined, undefined, undefined, undefined, 'http://evil.example', 'null', 'own'),
  extra: fc.dictionary(
    fc.constantFrom(
      'x-forwarded-for',
      'accept',
      'accept-encoding',
      'sec-fetch-site',
      'x-http-method-override',
      'range',
    ),
    fc.oneof(headerText, fc.array(headerText, { minLength: 2, maxLength: 2 })),
    { maxKeys: 3 },
  ),
});
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(r: FuzzRequest): Promise<Answer> {
  const { port } = new URL(server.url);
  const [defaultMethod] = routes[r.route % routes.length] ?? ['GET'];
  const method = r.method ?? (routes.find(([, p]) => p === r.path)?.[0] || defaultMethod);
  const target = r.path
    .replace(':id', itemIds[r.route % itemIds.length] ?? 'x')
    .replace(':number', `PF-${10_000 + (r.route % 40)}`);
  const headers: Record<string, string | string[]> = { ...r.extra };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType as string | string[];
  if (r.cookie && 'member' in r.cookie) headers.cookie = members[r.cookie.member]?.cookieHeader ?? '';
  else if (r.cookie && 'text' in r.cookie) headers.cookie = r.cookie.text;
  else if (r.cookie) headers.cookie = r.cookie.many;
  if (r.origin) headers.origin = r.origin === 'own' ? server.url : r.origin;
  const payload = r.body === undefined || method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(r.body);
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        // A live stream stays open: its status and headers are all this test needs.
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
        return;
      }
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', (error) => {
      // The server may answer 413 and close before reading an oversized body: the client's write then fails.
      reject(error);
    });
    req.end(payload);
  });
}

/** The server's log lines of level error and above, the newest last, for a failure's message. */
function serverErrors(): string {
  const errors = server.logs.filter((line) => line.level === 'error' || line.level === 'fatal').slice(-5);
  return errors.map((line) => JSON.stringify(line).slice(0, 2000)).join('\n');
}

function check(r: FuzzRequest, answer: Answer) {
  const what = `${answer.status} for ${JSON.stringify(r).slice(0, 600)}: ${answer.text.slice(0, 300)}${
    answer.status >= 500 ? `\nThe server logged:\n${serverErrors()}` : ''
  }`;
  expect(answer.status, what).toBeGreaterThanOrEqual(200);
  expect(answer.status, what).toBeLessThan(500);
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
  const isJson = String(answer.headers['content-type']).startsWith('application/json');
  const apiPath = /^\/api(\/|$|\?)/.test(r.path) || r.path === '/healthz';
  if (answer.status >= 400 && (apiPath || isJson) && r.method !== 'HEAD') {
    expect(isJson, what).toBe(true);
    const parsed = JSON.parse(answer.text);
    const extra = errorExtras[parsed.code as ErrorCode];
    expect(Object.keys(parsed).sort(), what).toEqual(['code', 'message', ...(extra ? [extra] : [])].sort());
    expect(typeof parsed.message, what).toBe('string');
    expect(errorCatalogue[parsed.code as ErrorCode]?.status, what).toBe(answer.status);
  }
}

describe('hostile input', () => {
  it(`${batches * perBatch} generated requests across every route: no 5xx, {code, message} errors, bounded memory`, async () => {
    let sent = 0;
    const statuses = new Map<number, number>();
    let afterWarmUp = 0;
    const rss: number[] = [];
    let batch = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: perBatch, maxLength: perBatch }), async (requests) => {
        const answers = await Promise.all(
          requests.map((r) =>
            send(r).catch((error: NodeJS.ErrnoException) => {
              // Only an oversized body may be cut off (413 is sent, then the socket closes mid-upload).
              if ((r.body?.length ?? 0) > 16 * 1024 && ['EPIPE', 'ECONNRESET'].includes(error.code ?? ''))
                return undefined;
              throw error;
            }),
          ),
        );
        // A 5xx's log line comes through the child's stdout a moment after the answer: wait for it before failing.
        if (answers.some((answer) => (answer?.status ?? 0) >= 500)) await new Promise((done) => setTimeout(done, 500));
        requests.forEach((r, i) => {
          const answer = answers[i];
          if (!answer) return;
          check(r, answer);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        });
        sent += requests.length;
        batch++;
        await keepMembersLoggedIn();
        if (batch % 100 === 0) {
          const health = await fetch(`${server.url}/healthz`);
          expect(health.status).toBe(200);
          rss.push(Math.round(server.rssMiB()));
          if (batch === warmUpBatches) {
            const live = await server.liveMemoryMiB();
            afterWarmUp = live.heapUsed + live.external;
          }
        }
      }),
      { numRuns: batches, endOnFailure: true },
    );
    expect(sent).toBe(batches * perBatch);
    expect(server.process.exitCode).toBeNull();
    const end = await server.liveMemoryMiB();
    const growth = Math.round((end.heapUsed + end.external - afterWarmUp) * 10) / 10;
    expect(growth, `live memory after warm-up ${afterWarmUp} MiB, at the end ${JSON.stringify(end)}`).toBeLessThan(
      maxLiveGrowthMiB,
    );
    console.info(
      `[fuzz ${database.backend}] ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
        `live memory (heap + buffers, after GC) ${afterWarmUp.toFixed(1)} MiB after warm-up, ` +
        `${(end.heapUsed + end.external).toFixed(1)} MiB at the end (growth ${growth} MiB); RSS MiB every 1,000: ${rss.join(', ')}`,
    );
  }, 240_000);
});
