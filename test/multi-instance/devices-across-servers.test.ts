import { describe, expect, it } from 'vitest';
import type { AccountSession } from '../../src/shared/api';
import { Client, sameBrowserOn } from '../support/client';
import { EventStream } from '../support/event-stream';
import { twoServersOnOneSchema } from '../support/two-servers';

/**
 * Where the rider is logged in, with two servers on one PostgreSQL schema: a session ended through one server ends on
 * the other too, its cached entry and its live streams (docs/product.md §4: 'within a second').
 */
const servers = twoServersOnOneSchema();

async function sessionsOf(client: Client): Promise<AccountSession[]> {
  const reply = await client.json('GET', '/api/account/sessions');
  expect(reply.status).toBe(200);
  return reply.body.sessions;
}

/** A rider on a phone that talks to A, and logged in on `others` browsers that talk to B, each with a live cart open. */
async function riderOnBothServers(others: number) {
  const phone = new Client(servers.a.url);
  const user = await phone.signup();
  const browsers: Client[] = [];
  for (let i = 0; i < others; i++) {
    const browser = new Client(servers.b.url);
    expect((await browser.login(user.email, 'secret1')).status).toBe(200);
    // Its session is now in B's cache.
    expect((await browser.session()).status).toBe(200);
    browsers.push(browser);
  }
  const streams = await Promise.all(browsers.map((browser) => EventStream.open(browser)));
  for (const stream of streams) await stream.next('snapshot');
  return { phone, browsers, streams };
}

async function expectEndedOnB(browsers: Client[], streams: EventStream[]) {
  for (const browser of browsers) {
    await expect.poll(async () => (await browser.session()).status, { timeout: 1_000, interval: 20 }).toBe(401);
  }
  for (const stream of streams) {
    await stream.next('signed-out', 1_000);
    await stream.ended(1_000);
  }
}

describe('where you are logged in, across two servers', () => {
  it('ending a session through A ends it on B at once: its cached session and its live stream', async () => {
    const { phone, browsers, streams } = await riderOnBothServers(1);
    const [browser] = browsers as [Client];
    const listed = await sessionsOf(phone);
    expect(listed.map((s) => [s.address, s.current])).toEqual([
      [phone.address, true],
      [browser.address, false],
    ]);

    expect((await phone.json('DELETE', `/api/account/sessions/${listed[1]?.id}`)).status).toBe(204);

    await expectEndedOnB(browsers, streams);
    expect((await phone.session()).status).toBe(200);
    expect((await sameBrowserOn(servers.b.url, phone).session()).status).toBe(200);
  });

  it("'Log out of all other devices' through A ends the sessions and streams on B", async () => {
    const { phone, browsers, streams } = await riderOnBothServers(2);
    const reply = await phone.json('POST', '/api/account/sessions/end-others');
    expect(reply.body).toEqual({ ended: 2 });

    await expectEndedOnB(browsers, streams);
    expect((await sessionsOf(sameBrowserOn(servers.b.url, phone))).map((s) => s.current)).toEqual([true]);
  });
});
