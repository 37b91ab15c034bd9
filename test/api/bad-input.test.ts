import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../src/shared/api';
import type { ErrorCode } from '../../src/shared/errors';
import { Client, type Reply, randomEmail, withSize } from '../support/client';
import { expectClientError, expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
/** Logged in once, at the start (so the account routes' recent-login rule holds); must end the file unchanged. */
let member: Client;
let memberUser: SessionUser;
beforeAll(async () => {
  server = await startTestServer();
  member = new Client(server.url);
  memberUser = await member.signup();
});
afterAll(() => server.stop());

interface Route {
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  /** The client to send with: anonymous for sign-up and log-in, the member for the rest. */
  client: () => Client;
  /** A well-formed body; the tests only ever send broken variants of it. */
  valid: () => Record<string, unknown>;
  /** The code a problem with each field is answered with. */
  fields: Record<string, ErrorCode>;
}

const routes: Route[] = [
  {
    name: 'sign-up',
    method: 'POST',
    path: '/api/auth/signup',
    client: () => new Client(server.url),
    valid: () => ({ email: randomEmail(), password: 'secret1' }),
    fields: { email: 'auth/invalid-email', password: 'auth/weak-password' },
  },
  {
    name: 'log-in',
    method: 'POST',
    path: '/api/auth/login',
    client: () => new Client(server.url),
    valid: () => ({ email: randomEmail(), password: 'secret1' }),
    fields: { email: 'auth/invalid-email', password: 'auth/invalid-password' },
  },
  {
    name: 'new e-mail',
    method: 'PUT',
    path: '/api/account/email',
    client: () => member,
    valid: () => ({ email: randomEmail() }),
    fields: { email: 'auth/invalid-email' },
  },
  {
    name: 'new password',
    method: 'PUT',
    path: '/api/account/password',
    client: () => member,
    valid: () => ({ password: 'new-pass' }),
    fields: { password: 'auth/weak-password' },
  },
  {
    name: 'cart add',
    method: 'POST',
    path: '/api/cart',
    client: () => member,
    valid: () => withSize('1'),
    fields: { itemid: 'request/invalid-body' },
  },
];

const json = { 'content-type': 'application/json' };

function send(
  route: Route,
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
  headers: Record<string, string> = json,
) {
  return route.client().raw(route.method, route.path, { body, headers });
}

/** Every refusal: a 4xx `{code, message}` of the catalogue, with the exact status and code expected. */
function expectRefused(reply: Reply, status: number, code: ErrorCode) {
  expectClientError(reply);
  expectError(reply, status, code);
}

const malformedJson = ['{', '{"email":', 'nul', '', ' ', '{"a":1,}', "{'a':1}", '{"a":1}{}', 'undefined', '\u0000'];
const notAnObject = ['[]', '"str"', 'null', '123', 'true', '[{"email":"a@example.com"}]'];
const wrongTypes: unknown[] = [123, 0, 1.5, -1, [], ['a@example.com'], {}, { value: 'a' }, null, true, false];

describe.each(routes)('$name ($method $path)', (route) => {
  it.each(malformedJson)('answers malformed JSON %j with 400 request/invalid-json', async (body) => {
    expectRefused(await send(route, body), 400, 'request/invalid-json');
  });

  it.each(notAnObject)('answers JSON %j, not an object, with 400 request/invalid-body', async (body) => {
    expectRefused(await send(route, body), 400, 'request/invalid-body');
  });

  it('answers a wrong type for each field with that field’s code', async () => {
    for (const [field, code] of Object.entries(route.fields)) {
      for (const value of wrongTypes) {
        const reply = await send(route, JSON.stringify({ ...route.valid(), [field]: value }));
        expect.soft(reply.body?.code, `${field} = ${JSON.stringify(value)}`).toBe(code);
        expectRefused(reply, 400, code);
      }
    }
  });

  it('answers each missing field, and an empty object, with that field’s code', async () => {
    const fields = Object.entries(route.fields);
    for (const [field, code] of fields) {
      const body = route.valid();
      delete body[field];
      expectRefused(await send(route, JSON.stringify(body)), 400, code);
    }
    expectRefused(await send(route, '{}'), 400, fields[0]?.[1] ?? 'request/invalid-body');
  });

  it.each([
    ['extra', 1],
    ['uid', 'someone-else'],
    ['__proto__', { admin: true }],
    ['constructor', 'x'],
    ['EMAIL', 'a@example.com'],
  ])('answers an unknown extra field %j with 400 request/invalid-body', async (field, value) => {
    // Written by hand so that "__proto__" is a real key of the JSON text.
    const body = JSON.stringify(route.valid()).replace(/}$/, `,${JSON.stringify(field)}:${JSON.stringify(value)}}`);
    expect(body).toContain(`"${field}":`);
    expectRefused(await send(route, body), 400, 'request/invalid-body');
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['text/plain;charset=UTF-8 (fetch default)', {}],
    ['form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['application/jsonp', { 'content-type': 'application/jsonp' }],
    ['application/json-patch+json', { 'content-type': 'application/json-patch+json' }],
    ['text/json', { 'content-type': 'text/json' }],
    ['an empty Content-Type', { 'content-type': '' }],
  ])('answers a JSON body sent as %s with 415 request/unsupported-media-type', async (_name, headers) => {
    expectRefused(await send(route, JSON.stringify(route.valid()), headers), 415, 'request/unsupported-media-type');
  });

  it('answers a JSON body with no Content-Type at all with 415 request/unsupported-media-type', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(route.valid()));
    const reply = await send(route, bytes, {});
    expectRefused(reply, 415, 'request/unsupported-media-type');
  });

  it('answers a body over 16 KiB with 413 request/body-too-large, with Content-Length', async () => {
    const body = JSON.stringify({ ...route.valid(), pad: 'x'.repeat(17 * 1024) });
    expectRefused(await send(route, body), 413, 'request/body-too-large');
  });

  it('answers a body over 16 KiB with 413 request/body-too-large, chunked without Content-Length', async () => {
    const encoder = new TextEncoder();
    const chunks = [`{"pad":"`, ...Array.from({ length: 20 }, () => 'x'.repeat(1024)), `"}`];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    expectRefused(await send(route, stream), 413, 'request/body-too-large');
  });

  it('accepts a chunked body without Content-Length when it is small (the check is on size, not framing)', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{'));
        controller.enqueue(new TextEncoder().encode('}'));
        controller.close();
      },
    });
    const fields = Object.values(route.fields);
    expectRefused(await send(route, stream), 400, fields[0] ?? 'request/invalid-body');
  });

  it('answers very long strings in every field with that field’s code', async () => {
    for (const [field, code] of Object.entries(route.fields)) {
      for (const length of [255, 5000, 15_000]) {
        const value = field === 'email' ? `${'a'.repeat(length)}@example.com` : 'a'.repeat(length);
        expectRefused(await send(route, JSON.stringify({ ...route.valid(), [field]: value })), 400, code);
      }
    }
  });
});

describe('the size limit is exactly 16 KiB', () => {
  const cartAdd = routes.find((r) => r.path === '/api/cart') as Route;
  const sized = (bytes: number) => {
    const head = '{"itemid":"1","pad":"';
    const body = `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(bytes);
    return body;
  };

  it('16384 bytes pass the limit (and then fail on the unknown field), 16385 do not', async () => {
    expectRefused(await send(cartAdd, sized(16 * 1024)), 400, 'request/invalid-body');
    expectRefused(await send(cartAdd, sized(16 * 1024 + 1)), 413, 'request/body-too-large');
  });

  it('counts bytes, not characters', async () => {
    // 6000 three-byte characters: under 16 Ki characters, over 16 KiB.
    const body = JSON.stringify({ itemid: '€'.repeat(6000) });
    expect(body.length).toBeLessThan(16 * 1024);
    expectRefused(await send(cartAdd, body), 413, 'request/body-too-large');
  });
});

describe('unicode, emoji and null bytes', () => {
  it.each([
    'rïder@exämple.com',
    '🐴@example.com',
    'rider@🐴.com',
    'ride\u0000r@example.com',
    'rider@example.com\u0000',
    ' rider@example.com',
    'rider@example.com\n',
    'rider\u200b@example.com',
    'rider@exam ple.com',
  ])('refuses the e-mail %j with 400 auth/invalid-email on sign-up, log-in and new e-mail', async (email) => {
    const anonymous = new Client(server.url);
    expectRefused(
      await anonymous.json('POST', '/api/auth/signup', { email, password: 'secret1' }),
      400,
      'auth/invalid-email',
    );
    expectRefused(
      await anonymous.json('POST', '/api/auth/login', { email, password: 'secret1' }),
      400,
      'auth/invalid-email',
    );
    expectRefused(await member.json('PUT', '/api/account/email', { email }), 400, 'auth/invalid-email');
  });

  it.each([['1\u0000'], ['🐴'], ['\u0000'], ['1\u0301'], ['\uD800']])(
    'refuses the item number %j with 400 cart/unknown-item',
    async (itemid) => {
      expectRefused(await member.json('POST', '/api/cart', { itemid }), 400, 'cart/unknown-item');
    },
  );

  it('keeps a password with emoji and a null byte whole: only the exact password logs in', async () => {
    const password = 'a\u0000🐴b🐴cd';
    expect([...password]).toHaveLength(7);
    const client = new Client(server.url);
    const user = await client.signup(randomEmail(), password);
    expect((await new Client(server.url).login(user.email, password)).status).toBe(200);
    for (const wrong of ['a\u0000🐴b🐴c', 'a🐴b🐴cd', 'a\u0000🐴b🐴cdx', 'a\u0000b🐴cd', 'a\u0000🐴b🐴dc']) {
      expectRefused(await new Client(server.url).login(user.email, wrong), 401, 'auth/invalid-credential');
    }
  });

  it('accepts an e-mail of exactly 254 characters and refuses 255', async () => {
    const domain = '@example.com';
    const at254 = `${'a'.repeat(254 - domain.length)}${domain}`;
    const at255 = `b${at254}`;
    const client = new Client(server.url);
    const reply = await client.json('POST', '/api/auth/signup', { email: at254, password: 'secret1' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.user.email).toBe(at254);
    expectRefused(
      await client.json('POST', '/api/auth/signup', { email: at255, password: 'secret1' }),
      400,
      'auth/invalid-email',
    );
  });
});

describe('unknown API paths', () => {
  it.each([
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api/auth'],
    ['GET', '/api/auth/nope'],
    ['GET', '/api/auth/signup'],
    ['GET', '/api/auth/login'],
    ['DELETE', '/api/auth/session'],
    ['PUT', '/api/auth/signup'],
    ['GET', '/api/users'],
    ['GET', '/api/auth/sign-in/email'],
    ['POST', '/api/auth/sign-up/email'],
    ['GET', '/api/../api/nope'],
    ['GET', '/api/%00'],
  ])('answers %s %s with 404 request/not-found', async (method, path) => {
    const reply = await new Client(server.url).json(
      method,
      path,
      method === 'GET' || method === 'DELETE' ? undefined : {},
    );
    expectRefused(reply, 404, 'request/not-found');
  });

  it.each([
    ['GET', '/api/cart/abc/def'],
    ['PUT', '/api/cart'],
    ['PATCH', '/api/cart'],
    ['POST', '/api/cart/stream'],
    ['GET', '/api/account'],
    ['GET', '/api/account/email'],
    ['POST', '/api/account/password'],
  ])('answers %s %s with 404 request/not-found for a logged-in user', async (method, path) => {
    const reply = await member.json(method, path, method === 'GET' ? undefined : {});
    expectRefused(reply, 404, 'request/not-found');
  });
});

describe('bad cart ids in DELETE', () => {
  it.each([
    ['..%2F', 'cart/not-found'],
    ['..%2F..%2Fauth%2Fsession', 'cart/not-found'],
    ['%2E%2E', 'request/not-found'],
    ['%2e%2e%2faccount', 'cart/not-found'],
    ['x'.repeat(5000), 'cart/not-found'],
    ['a'.repeat(65), 'cart/not-found'],
    ['%E2%9C%93', 'cart/not-found'],
    [encodeURIComponent('🐴'), 'cart/not-found'],
    ['%', 'cart/not-found'],
    ['%zz', 'cart/not-found'],
    ['%E0%A4%A', 'cart/not-found'],
    ['%00', 'cart/not-found'],
    [encodeURIComponent("1' OR '1'='1"), 'cart/not-found'],
    ['*', 'cart/not-found'],
    ['%25', 'cart/not-found'],
    ['null', 'cart/not-found'],
    ['00000000-0000-0000-0000-000000000000', 'cart/not-found'],
  ] as const)('DELETE /api/cart/%s answers with %s', async (id, code) => {
    const reply = await member.json('DELETE', `/api/cart/${id}`);
    expectRefused(reply, 404, code);
  });

  it('leaves the cart alone', async () => {
    const item = await member.add('2');
    for (const id of [
      '..%2F',
      '%25',
      '*',
      encodeURIComponent(`${item.id}' OR '1'='1`),
      `${item.id}%00`,
      ` ${item.id}`,
    ]) {
      expectRefused(await member.json('DELETE', `/api/cart/${id}`), 404, 'cart/not-found');
    }
    expect(await member.cart()).toEqual([item]);
    expect((await member.json('DELETE', `/api/cart/${item.id}`)).status).toBe(204);
  });
});

describe('well-formed variants are accepted', () => {
  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'])(
    'accepts Content-Type %j',
    async (type) => {
      const reply = await member.raw('POST', '/api/cart', {
        body: '{"itemid":"3","size":"8"}',
        headers: { 'content-type': type },
      });
      expect(reply.status).toBe(201);
      expect((await member.json('DELETE', `/api/cart/${reply.body.item.id}`)).status).toBe(204);
    },
  );

  it('accepts JSON with surrounding white space', async () => {
    const reply = await member.raw('POST', '/api/cart', {
      body: ' \n{ "itemid" : "3", "size": "8" }\n ',
      headers: json,
    });
    expect(reply.status).toBe(201);
    expect((await member.json('DELETE', `/api/cart/${reply.body.item.id}`)).status).toBe(204);
  });
});

describe('after all of that', () => {
  it("the member's account, session and cart are unchanged", async () => {
    expect((await member.session()).body).toEqual({ user: memberUser, role: 'rider' });
    expect(await member.cart()).toEqual([]);
    expect(await server.rowsOf(memberUser.uid, memberUser.email)).toEqual({
      user: 1,
      session: 1,
      account: 1,
      cart_item: 0,
      login_attempt: 0,
      passkey: 0,
    });
    expect((await new Client(server.url).login(memberUser.email, 'secret1')).status).toBe(200);
  });
});
