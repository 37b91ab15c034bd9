import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox } from '../../scripts/mailbox';
import { createRoles } from '../../src/server/auth/roles';
import type { Order } from '../../src/shared/orders';
import { Client, confirmedRider, type Reply, testMailbox } from '../support/client';
import { openRawStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let mailbox: Mailbox;
let server: TestServer;
let owner: Client;
beforeAll(async () => {
  mailbox = await testMailbox();
  server = await startTestServer({ SMTP_URL: mailbox.url, MAIL_RETRY_DELAYS: '0.1' });
  owner = await ownerClient();
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

async function ownerClient(): Promise<Client> {
  const client = new Client(server.url);
  const { email } = await client.signupConfirmed();
  expect(await createRoles(server.db).grant(email)).toBe('granted');
  return client;
}

async function riderWithOrder(...itemids: string[]): Promise<{ rider: Client; order: Order }> {
  const rider = await confirmedRider(server.url);
  return { rider, order: await rider.order(...(itemids.length > 0 ? itemids : ['1'])) };
}

const move = (client: Client, number: string, body: Record<string, unknown>) =>
  client.json('POST', `/api/admin/orders/${number}/moves`, body);

/** Every admin route, with a request each that an owner may send. */
async function adminRequests(client: Client, number: string): Promise<Reply[]> {
  return [
    await client.json('GET', '/api/admin/orders'),
    await client.json('GET', `/api/admin/orders/${number}`),
    await move(client, number, { to: 'paid', from: 'placed' }),
    await client.json('GET', '/api/admin/orders.csv?from=2026-01-01&to=2026-12-31'),
    await client.json('GET', '/api/admin/orders/stream'),
    await client.json('GET', '/api/admin/outbox'),
    await client.json('POST', `/api/admin/outbox/${crypto.randomUUID()}/retry`),
  ];
}

describe('access', () => {
  it('answers every admin route 401 to a visitor and 403 auth/forbidden to a rider, changing nothing', async () => {
    const { rider, order } = await riderWithOrder();
    for (const reply of await adminRequests(new Client(server.url), order.number)) {
      expectError(reply, 401, 'auth/unauthenticated');
    }
    for (const reply of await adminRequests(rider, order.number)) expectError(reply, 403, 'auth/forbidden');
    expect((await rider.json('GET', `/api/orders/${order.number}`)).body.order.status).toBe('placed');
  });

  it('tells the session its role: rider, then owner once made one, and rider again once that ends', async () => {
    const client = new Client(server.url);
    const { email } = await client.signupConfirmed();
    expect((await client.session()).body.role).toBe('rider');
    await createRoles(server.db).grant(email);
    expect((await client.session()).body.role).toBe('owner');
    expect((await client.login(email, 'secret1')).body.role).toBe('owner');
    await createRoles(server.db).revoke(email);
    expect((await client.session()).body.role).toBe('rider');
    expectError(await client.json('GET', '/api/admin/orders'), 403, 'auth/forbidden');
  });
});

describe('the orders', () => {
  it('lists every order newest first, filters by status and finds by number or e-mail', async () => {
    const { rider, order: first } = await riderWithOrder('2');
    const second = await rider.order('3');
    const list = await owner.json('GET', '/api/admin/orders');
    expect(list.status).toBe(200);
    const numbers = list.body.orders.map((o: Order) => o.number);
    expect(numbers.indexOf(second.number)).toBeLessThan(numbers.indexOf(first.number));

    await move(owner, first.number, { to: 'paid', from: 'placed' });
    const paid = await owner.json('GET', '/api/admin/orders?status=paid');
    expect(paid.body.orders.map((o: Order) => o.status)).not.toContain('placed');
    expect(paid.body.orders.map((o: Order) => o.number)).toContain(first.number);

    for (const q of [first.number, first.number.toLowerCase(), first.number.slice(3)]) {
      const found = await owner.json('GET', `/api/admin/orders?q=${encodeURIComponent(q)}`);
      expect(found.body.orders.map((o: Order) => o.number)).toEqual([first.number]);
    }
    const email = rider.user?.email ?? '';
    const byEmail = await owner.json(
      'GET',
      `/api/admin/orders?q=${encodeURIComponent(email.slice(0, 12).toUpperCase())}`,
    );
    expect(byEmail.body.orders.map((o: Order) => o.number)).toEqual([second.number, first.number]);
    // LIKE's wildcards are taken literally, on both databases: `_` finds an underscore, `%` a percent sign.
    expect((await owner.json('GET', '/api/admin/orders?q=%25')).body.total).toBe(0);
    expect((await owner.json('GET', '/api/admin/orders?q=_')).body.total).toBe(0);
    const underscored = new Client(server.url);
    const { email: withUnderscore } = await underscored.signupConfirmed(
      `carol_${crypto.randomUUID().slice(0, 8)}@example.com`,
    );
    const hers = await underscored.order('1');
    const found = await owner.json('GET', `/api/admin/orders?q=${encodeURIComponent(withUnderscore)}`);
    expect(found.body.orders.map((o: Order) => o.number)).toEqual([hers.number]);
    const wildcard = withUnderscore.replace('_', '%25');
    expect((await owner.json('GET', `/api/admin/orders?q=${wildcard}`)).body.total).toBe(0);
    // A number beyond the database's integers is no order, and no error either.
    for (const q of ['99999999999', 'PF-2147483648']) {
      expect((await owner.json('GET', `/api/admin/orders?q=${q}`)).body.total).toBe(0);
    }
  });

  it.each([
    ['status=lost'],
    ['page=0'],
    [`q=${'x'.repeat(255)}`],
    ['q=%00'],
    ['q=a%0Ab'],
    ['status=paid&status=placed'],
    ['sort=number'],
  ])('refuses the query %s with 400 request/invalid-query', async (query) => {
    expectError(await owner.json('GET', `/api/admin/orders?${query}`), 400, 'request/invalid-query');
  });

  it('shows an order with its history: what, when and by whom', async () => {
    const { order } = await riderWithOrder('4');
    const reply = await owner.json('GET', `/api/admin/orders/${order.number}`);
    expect(reply.status).toBe(200);
    expect(reply.body.order).toEqual({
      ...order,
      history: [{ ...order.history[0], who: order.email }],
    });
    expectError(await owner.json('GET', '/api/admin/orders/PF-99999999'), 404, 'order/not-found');
  });
});

describe('moves', () => {
  it('marks paid, then shipped with a note; each recorded with its owner and e-mailed to the rider', async () => {
    const { rider, order } = await riderWithOrder('5');
    const email = rider.user?.email ?? '';
    const paid = await move(owner, order.number, { to: 'paid', from: 'placed' });
    expect(paid.status).toBe(200);
    expect(paid.body.order.status).toBe('paid');
    const shipped = await move(owner, order.number, {
      to: 'shipped',
      from: 'paid',
      note: 'Tracking 1Z999AA10123456784',
    });
    expect(shipped.body.order.history).toEqual([
      expect.objectContaining({ status: 'placed', by: 'rider', who: email }),
      expect.objectContaining({ status: 'paid', by: 'owner', who: owner.user?.email, note: null }),
      expect.objectContaining({
        status: 'shipped',
        by: 'owner',
        who: owner.user?.email,
        note: 'Tracking 1Z999AA10123456784',
      }),
    ]);
    // The rider sees the status, but not who in the shop did it.
    const seen = await rider.json('GET', `/api/orders/${order.number}`);
    expect(seen.body.order.status).toBe('shipped');
    expect(seen.body.order.history[2]).toEqual({
      status: 'shipped',
      at: expect.any(String),
      by: 'owner',
      note: 'Tracking 1Z999AA10123456784',
    });
    await mailbox.waitFor(
      (m) => m.to.includes(email) && m.parsed.subject === `We have your payment for order ${order.number}`,
    );
    const mail = await mailbox.waitFor(
      (m) => m.to.includes(email) && m.parsed.subject === `Your order ${order.number} is on its way`,
    );
    expect(mail.parsed.text).toContain('Tracking 1Z999AA10123456784');
  });

  it('cancels a placed or a paid order with a reason, e-mailed to the rider', async () => {
    const { rider, order } = await riderWithOrder('6');
    await move(owner, order.number, { to: 'paid', from: 'placed' });
    const reply = await move(owner, order.number, { to: 'cancelled', from: 'paid', note: 'Out of stock' });
    expect(reply.body.order.status).toBe('cancelled');
    const mail = await mailbox.waitFor(
      (m) => m.to.includes(rider.user?.email ?? '') && m.parsed.subject === `Your order ${order.number} is cancelled`,
    );
    expect(mail.parsed.text).toContain('Out of stock');
    expect(mail.parsed.text).toContain(`We have cancelled your order ${order.number}.`);
  });

  it.each([
    ['placed', 'shipped'],
    ['placed', 'placed'],
    ['paid', 'paid'],
    ['paid', 'placed'],
    ['shipped', 'cancelled'],
    ['shipped', 'paid'],
    ['cancelled', 'paid'],
    ['cancelled', 'placed'],
  ] as const)('refuses the move from %s to %s with 409 order/invalid-transition', async (from, to) => {
    const { order } = await riderWithOrder('7');
    const path: Record<string, string[]> = {
      placed: [],
      paid: ['paid'],
      shipped: ['paid', 'shipped'],
      cancelled: ['cancelled'],
    };
    let status = 'placed';
    for (const step of path[from] ?? []) {
      expect((await move(owner, order.number, { to: step, from: status })).status).toBe(200);
      status = step;
    }
    expectError(await move(owner, order.number, { to, from }), 409, 'order/invalid-transition');
    expect((await owner.json('GET', `/api/admin/orders/${order.number}`)).body.order.history).toHaveLength(
      (path[from] ?? []).length + 1,
    );
  });

  it('lets one of two owners acting at once win; the other is told the order changed', async () => {
    const other = await ownerClient();
    for (let round = 0; round < 5; round++) {
      const { order } = await riderWithOrder('8');
      const replies = await Promise.all([
        move(owner, order.number, { to: 'paid', from: 'placed' }),
        move(other, order.number, { to: 'cancelled', from: 'placed', note: 'Duplicate' }),
      ]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const lost = replies.find((r) => r.status === 409) as Reply;
      expectError(lost, 409, 'order/status-changed');
      const history = (await owner.json('GET', `/api/admin/orders/${order.number}`)).body.order.history;
      expect(history).toHaveLength(2);
    }
  });

  it('refuses a move from a status the order no longer has with 409 order/status-changed', async () => {
    const { order } = await riderWithOrder('1');
    await move(owner, order.number, { to: 'paid', from: 'placed' });
    const stale = await move(owner, order.number, { to: 'cancelled', from: 'placed', note: 'No payment' });
    expectError(stale, 409, 'order/status-changed', /It is paid now\./);
  });

  it.each([
    ['an unknown status', { to: 'refunded', from: 'placed' }],
    ['no from', { to: 'paid' }],
    ['a note with a line break', { to: 'paid', from: 'placed', note: 'a\r\nBcc: x@example.com' }],
    ['a note too long', { to: 'paid', from: 'placed', note: 'x'.repeat(501) }],
    ['an unknown field', { to: 'paid', from: 'placed', by: 'someone' }],
  ])('refuses %s with 400 request/invalid-body', async (_, body) => {
    const { order } = await riderWithOrder('2');
    expectError(await move(owner, order.number, body), 400, 'request/invalid-body');
  });
});

describe('the export', () => {
  it('answers the orders of the days asked for as CSV, one row per line, with spreadsheet formulas escaped', async () => {
    const rider = await confirmedRider(server.url);
    await rider.add('1');
    await rider.add('2');
    const reply = await rider.placeOrder({
      address: {
        fullName: '=HYPERLINK("http://evil.example")',
        line1: '@SUM(A1)',
        line2: '',
        city: '+Wellington',
        region: '-FL',
        postalCode: '33414',
        country: 'US',
        phone: '',
      },
    });
    const order: Order = reply.body.order;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const csv = await owner.raw('GET', `/api/admin/orders.csv?from=${yesterday}&to=${tomorrow}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="piaffe-orders-${yesterday}-to-${tomorrow}.csv"`,
    );
    expect(csv.headers.get('cache-control')).toBe('no-store');
    const rows = String(csv.body)
      .split('\r\n')
      .filter((row) => row.includes(`"${order.number}"`));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    // The state as its country's subdivision, however it was given ('-FL'), printed by its name.
    expect(rows[0]).toContain(`"'@SUM(A1), +Wellington, Florida 33414, United States"`);
    expect(rows[0]).toContain(
      `"1","Anky Bridle","Full",302.99,"",,0.00,${(order.money.totalCents / 100).toFixed(2)},"Placed"`,
    );
    expect(rows[1]).toContain('"2","Albion SLK Saddle","17""",4990.00');
    for (const row of String(csv.body).split('\r\n').slice(1, -1)) expect(row).not.toMatch(/(^|,)"[=+\-@]/);

    const none = await owner.raw('GET', '/api/admin/orders.csv?from=2020-01-01&to=2020-01-31');
    expect(String(none.body).split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it.each([
    ['from=2026-01-01'],
    ['from=2026-02-30&to=2026-03-01'],
    ['from=2026-03-01&to=2026-02-01'],
    ['from=2024-01-01&to=2026-01-01'],
    ['from=26-1-1&to=26-1-2'],
  ])('refuses %s with 400 request/invalid-query', async (query) => {
    expectError(await owner.json('GET', `/api/admin/orders.csv?${query}`), 400, 'request/invalid-query');
  });
});

describe('the outbox', () => {
  it('lists e-mails without their bodies, and sends a failed one again', async () => {
    const { rider, order } = await riderWithOrder('3');
    const email = rider.user?.email ?? '';
    await mailbox.waitFor((m) => m.to.includes(email) && m.parsed.subject === `Your order ${order.number}`);
    mailbox.refuseWith = { code: 550, message: 'No such mailbox' };
    try {
      await rider.json('POST', `/api/orders/${order.number}/cancel`);
      await expect
        .poll(
          async () =>
            (await owner.json('GET', '/api/admin/outbox?state=failed')).body.emails.map(
              (e: { recipient: string }) => e.recipient,
            ),
          // Two SMTP exchanges, 0.1 s apart: a second or more on this machine, so the bound is well above it.
          { timeout: 10_000 },
        )
        .toContain(email);
    } finally {
      mailbox.refuseWith = undefined;
    }
    const failed = (await owner.json('GET', '/api/admin/outbox?state=failed')).body;
    const row = failed.emails.find((e: { recipient: string }) => e.recipient === email);
    expect(row).toEqual({
      id: expect.any(String),
      kind: 'order-cancelled',
      recipient: email,
      subject: `Your order ${order.number} is cancelled`,
      state: 'failed',
      attempts: 2,
      lastError: expect.stringContaining('No such mailbox'),
      createdAt: expect.any(String),
      sentAt: null,
      nextAttemptAt: null,
      retryable: true,
    });
    expect(failed.counts.failed).toBeGreaterThanOrEqual(1);

    const retried = await owner.json('POST', `/api/admin/outbox/${row.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.email).toMatchObject({ id: row.id, state: 'waiting', attempts: 0, retryable: false });
    await mailbox.waitFor((m) => m.to.includes(email) && /cancelled/.test(m.parsed.subject ?? ''));
    expectError(await owner.json('POST', `/api/admin/outbox/${row.id}/retry`), 409, 'outbox/not-retryable');
    expectError(await owner.json('POST', '/api/admin/outbox/not-an-id/retry'), 404, 'outbox/not-found');
  });

  it('never shows or resends a password-reset link', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signupConfirmed();
    mailbox.refuseWith = { code: 550, message: 'No such mailbox' };
    try {
      await rider.json('POST', '/api/auth/password-reset', { email });
      await expect
        .poll(async () => JSON.stringify((await owner.json('GET', '/api/admin/outbox?state=failed')).body), {
          timeout: 10_000,
        })
        .toContain(email);
    } finally {
      mailbox.refuseWith = undefined;
    }
    const listed = await owner.json('GET', '/api/admin/outbox');
    const text = JSON.stringify(listed.body);
    expect(text).not.toMatch(/#token=|reset-password#/);
    const row = listed.body.emails.find((e: { recipient: string; kind: string }) => e.recipient === email);
    expect(row).toMatchObject({ kind: 'password-reset', retryable: false });
    expectError(await owner.json('POST', `/api/admin/outbox/${row.id}/retry`), 409, 'outbox/not-retryable');
    const stored = await server.db.kysely
      .selectFrom('outbox')
      .select('text_body')
      .where('id', '=', row.id)
      .executeTakeFirst();
    expect(stored?.text_body).not.toContain('#token=');
  });
});

describe('the live list', () => {
  it('ends once its owner is an owner no more, telling nothing more', async () => {
    const ex = await ownerClient();
    const stream = await openRawStream(`${server.url}/api/admin/orders/stream`, ex.cookieHeader);
    await stream.until(/event: ready/);
    await createRoles(server.db).revoke(ex.user?.email ?? '');
    await riderWithOrder('5');
    await stream.toEnd();
    expect(stream.text).not.toContain('event: orders');
  });

  it('nudges an owner’s open list when an order is placed or moved, with nothing about the order', async () => {
    const stream = await openRawStream(`${server.url}/api/admin/orders/stream`, owner.cookieHeader);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    try {
      await stream.until(/event: ready/);
      await riderWithOrder('4');
      await stream.until(/event: orders\ndata: \{\}\n\n/);
    } finally {
      await stream.close();
    }
  });
});
