import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox, ReceivedMail } from '../../scripts/mailbox';
import { confirmationLinkLifetimeMs } from '../../src/server/auth/email-confirmations';
import { throttlePolicy } from '../../src/server/auth/throttle';
import {
  Client,
  confirmationSubject,
  confirmationToken,
  confirmedRider,
  loopbackAddress,
  mailMark,
  randomEmail,
} from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let mailbox: Mailbox;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://shop.piaffe.test' }, { captureLog: true });
  mailbox = server.mailbox as Mailbox;
});
afterAll(() => server.stop());

const open = (client: Client, token: string) => client.json('POST', '/api/auth/email-confirmation', { token });
const sendAgain = (client: Client) => client.json('POST', '/api/auth/email-confirmation/send');
const linksTo = (email: string) => (mail: ReceivedMail) =>
  mail.to.includes(email) && mail.parsed.subject === confirmationSubject;

async function emailConfirmed(client: Client): Promise<boolean> {
  return (await client.session()).body.user.emailConfirmed;
}

/** A new rider with something in the cart, not yet confirmed. */
async function riderWithCart(): Promise<Client> {
  const rider = new Client(server.url);
  await rider.signup();
  await rider.add('2');
  return rider;
}

describe('confirming the address', () => {
  it('e-mails a single-use link to PUBLIC_URL at sign-up; opening it confirms the address, and orders go through', async () => {
    const rider = await riderWithCart();
    const email = rider.user?.email ?? '';
    expect(await emailConfirmed(rider)).toBe(false);
    expectError(await rider.placeOrder(), 403, 'auth/email-not-confirmed');

    const mail = await mailbox.waitFor(linksTo(email));
    const link = /(https:\/\/shop\.piaffe\.test\/confirm-email#token=([A-Za-z0-9_-]{43}))/.exec(mail.parsed.text ?? '');
    expect(link).not.toBeNull();
    expect(mail.parsed.html).toContain(`href="${link?.[1]}"`);
    // Opened in another browser (the phone's mail app): the token alone is the proof. The sign-up's own session ends
    // with every other (below); logged in again, the rider orders.
    const reply = await open(new Client(server.url), link?.[2] ?? '');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ email });
    expect((await rider.login(email, 'secret1')).body.user.emailConfirmed).toBe(true);
    expect((await rider.placeOrder()).status).toBe(201);

    expectError(await open(new Client(server.url), link?.[2] ?? ''), 410, 'auth/confirm-link-used');
  });

  it('refuses an order before confirmation with 403, taking no stock and leaving the cart as it was', async () => {
    const rider = await riderWithCart();
    const before = await server.stock.sizesOf('2');
    const cart = await rider.cart();
    expectError(await rider.placeOrder(), 403, 'auth/email-not-confirmed');
    expect(await server.stock.sizesOf('2')).toEqual(before);
    expect(await rider.cart()).toEqual(cart);
    const orders = await server.db.kysely
      .selectFrom('shop_order')
      .select('number')
      .where('uid', '=', rider.user?.uid ?? '')
      .execute();
    expect(orders).toEqual([]);
  });

  it('keeps the link working for 24 hours and no longer: an expired link says so and a new one can be asked for', async () => {
    const rider = new Client(server.url);
    const { email, uid } = await rider.signup();
    const token = await confirmationToken(email);
    const row = await server.db.kysely
      .selectFrom('email_confirmation')
      .select(['created_at', 'expires_at'])
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(confirmationLinkLifetimeMs);
    expect(confirmationLinkLifetimeMs).toBe(24 * 60 * 60 * 1000);
    await server.db.kysely
      .updateTable('email_confirmation')
      .set({ expires_at: Date.now() - 1 })
      .where('uid', '=', uid)
      .execute();
    expectError(await open(rider, token), 410, 'auth/confirm-link-expired');
    expect(await emailConfirmed(rider)).toBe(false);

    const since = await mailMark();
    expect((await sendAgain(rider)).status).toBe(204);
    await rider.confirmEmail(since);
    expect(await emailConfirmed(rider)).toBe(true);
  });

  it("confirms only the account the link was sent to: another rider's link leaves the rider who opens it unconfirmed", async () => {
    const first = new Client(server.url);
    const { email: firstEmail } = await first.signup();
    const second = new Client(server.url);
    await second.signup();
    // The second rider, logged in, opens the first rider's link: the first rider's sessions end, not the second's.
    const reply = await open(second, await confirmationToken(firstEmail));
    expect(reply.body).toEqual({ email: firstEmail });
    expectError(await first.session(), 401, 'auth/unauthenticated');
    expect((await first.login(firstEmail, 'secret1')).body.user.emailConfirmed).toBe(true);
    expect(await emailConfirmed(second)).toBe(false);
    await second.add('1');
    expectError(await second.placeOrder(), 403, 'auth/email-not-confirmed');
  });

  it("ends every other session of the account as it confirms it, and keeps the browser's that opened the link", async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await confirmationToken(email);
    const laptop = new Client(server.url);
    expect((await laptop.login(email, 'secret1')).status).toBe(200);
    const stream = await EventStream.open(laptop, '/api/account/stream');
    try {
      await stream.next('ready' as never);
      expect((await open(rider, token)).status).toBe(200);
      await stream.next('signed-out');
      await stream.ended();
    } finally {
      stream.close();
    }
    expectError(await laptop.session(), 401, 'auth/unauthenticated');
    expect((await rider.session()).body.user).toEqual({ ...rider.user, emailConfirmed: true });
    expect((await server.rowsOf(rider.user?.uid ?? '', email)).session).toBe(1);

    // Only the turn from unconfirmed to confirmed ends sessions: the spent link, opened again, ends nothing.
    expect((await laptop.login(email, 'secret1')).status).toBe(200);
    expectError(await open(new Client(server.url), token), 410, 'auth/confirm-link-used');
    expect((await laptop.session()).status).toBe(200);
  });

  it('refuses a token that is not a link of ours: unknown, malformed, missing', async () => {
    const client = new Client(server.url);
    expectError(await open(client, 'A'.repeat(43)), 400, 'auth/confirm-link-invalid');
    expectError(await open(client, 'short'), 400, 'auth/confirm-link-invalid');
    expectError(await client.json('POST', '/api/auth/email-confirmation', {}), 400, 'auth/confirm-link-invalid');
    expectError(
      await client.json('POST', '/api/auth/email-confirmation', { token: 42 }),
      400,
      'auth/confirm-link-invalid',
    );
  });

  it('confirms once when one link is opened ten times at once', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await confirmationToken(email);
    const replies = await Promise.all(Array.from({ length: 10 }, () => open(new Client(server.url), token)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200)) expectError(reply, 410, 'auth/confirm-link-used');
  });

  it('spends every open link of the account once one is used', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const first = await confirmationToken(email);
    const since = await mailMark();
    expect((await sendAgain(rider)).status).toBe(204);
    const second = await confirmationToken(email, since);
    expect(second).not.toBe(first);
    expect((await open(rider, second)).status).toBe(200);
    expectError(await open(rider, first), 410, 'auth/confirm-link-used');
  });

  it('tells the open pages of the rider at once: their live streams get an account event', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const stream = await EventStream.open(rider, '/api/account/stream');
    const cart = await EventStream.open(rider);
    try {
      await stream.next('ready' as never);
      await cart.next('snapshot');
      expect((await open(new Client(server.url), await confirmationToken(email))).status).toBe(200);
      await stream.next('account' as never);
      await cart.next('account' as never);
    } finally {
      stream.close();
      cart.close();
    }
  });

  it('keeps the token out of the log and out of the outbox once sent', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    const token = await confirmationToken(email);
    expect((await open(new Client(server.url), token)).status).toBe(200);
    for (const line of server.logLines) expect(line).not.toContain(token);
    const row = await server.db.kysely
      .selectFrom('outbox')
      .select(['text_body', 'html_body', 'state'])
      .where('recipient', '=', email)
      .where('kind', '=', 'confirm-email')
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('sent');
    expect(`${row.text_body}${row.html_body}`).not.toContain(token);
  });
});

describe('a changed address', () => {
  it('must be confirmed again before the next order; a link to the old address no longer confirms anything', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signupConfirmed();
    // A link sent to the old address and never opened.
    const since = await mailMark();
    await server.db.kysely
      .updateTable('user')
      .set({ emailVerified: server.db.flag(false) })
      .where('email', '=', email)
      .execute();
    expect((await sendAgain(rider)).status).toBe(204);
    const oldLink = await confirmationToken(email, since);
    await server.db.kysely
      .updateTable('user')
      .set({ emailVerified: server.db.flag(true) })
      .where('email', '=', email)
      .execute();

    const newEmail = randomEmail();
    expect((await rider.json('PUT', '/api/account/email', { email: newEmail })).status).toBe(204);
    expect((await rider.login(newEmail, 'secret1')).body.user).toMatchObject({
      email: newEmail,
      emailConfirmed: false,
    });
    await rider.add('3');
    expectError(await rider.placeOrder(), 403, 'auth/email-not-confirmed');
    expectError(await open(rider, oldLink), 410, 'auth/confirm-link-used');

    // Confirming the new address ends the account's other sessions too: each was logged in to an unconfirmed address.
    const phone = new Client(server.url);
    expect((await phone.login(newEmail, 'secret1')).status).toBe(200);
    await rider.confirmEmail();
    expect(await emailConfirmed(rider)).toBe(true);
    expectError(await phone.session(), 401, 'auth/unauthenticated');
    const order = await rider.placeOrder();
    expect(order.status).toBe(201);
    expect(order.body.order.email).toBe(newEmail);
  });
});

describe("'Send it again'", () => {
  it('sends a new link, up to the limit per account, then answers 429 with a clear message and Retry-After', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    await mailbox.waitFor(linksTo(email));
    for (let i = 0; i < throttlePolicy.maxConfirmationsPerEmail; i++) expect((await sendAgain(rider)).status).toBe(204);
    const refused = await sendAgain(rider);
    expectError(refused, 429, 'auth/too-many-requests', /several links/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect
      .poll(() => mailbox.mails.filter(linksTo(email)).length)
      .toBe(1 + throttlePolicy.maxConfirmationsPerEmail);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailbox.mails.filter(linksTo(email))).toHaveLength(1 + throttlePolicy.maxConfirmationsPerEmail);
  });

  it('is limited per client address too, over many accounts', async () => {
    const address = loopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= throttlePolicy.maxConfirmationsPerAddress; i++) {
      // Each rider signs up from an address of its own (sign-ups are counted per address too), then asks again from
      // the one address they share (a household, a yard's wifi).
      const signedUp = new Client(server.url);
      await signedUp.signup();
      const rider = new Client(server.url, address);
      rider.cookies = signedUp.cookies;
      statuses.push((await sendAgain(rider)).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts a change of address with it: each change e-mails a link to the new address', async () => {
    const rider = new Client(server.url);
    const { email } = await rider.signup();
    let current = email;
    for (let i = 0; i < throttlePolicy.maxConfirmationsPerAddress; i++) {
      const next = randomEmail();
      expect((await rider.json('PUT', '/api/account/email', { email: next })).status).toBe(204);
      expect((await rider.login(next, 'secret1')).status).toBe(200);
      current = next;
    }
    const refused = await rider.json('PUT', '/api/account/email', { email: randomEmail() });
    expectError(refused, 429, 'auth/too-many-requests', /several links/);
    expect((await rider.session()).body.user.email).toBe(current);
  });

  it('keeps counting the links to an address when its account is deleted and made again', async () => {
    const email = randomEmail();
    const first = new Client(server.url);
    await first.signup(email);
    for (let i = 0; i < throttlePolicy.maxConfirmationsPerEmail; i++) expect((await sendAgain(first)).status).toBe(204);
    expect((await first.json('DELETE', '/api/account')).status).toBe(204);
    const again = new Client(server.url);
    await again.signup(email);
    expectError(await sendAgain(again), 429, 'auth/too-many-requests', /several links/);
  });

  it('answers 409 for an address already confirmed, and 401 without a session', async () => {
    const rider = await confirmedRider(server.url);
    expectError(await sendAgain(rider), 409, 'auth/email-already-confirmed');
    expectError(await sendAgain(new Client(server.url)), 401, 'auth/unauthenticated');
  });
});
