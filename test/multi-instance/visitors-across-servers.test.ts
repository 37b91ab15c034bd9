import { describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { EventStream } from '../support/event-stream';
import { expectError } from '../support/expect-error';
import { twoServersOnOneSchema } from '../support/two-servers';
import { setOpenTo } from '../support/visitors';

/**
 * A shop open to visitors on two servers sharing one PostgreSQL schema (docs/product.md §23): the owner's switch
 * through A reaches B's gate and B's open pages at once, and a visitor's cart joins the account's exactly once when
 * log-ins on both servers race.
 */
const servers = twoServersOnOneSchema({ owner: true });

describe('visitors on two servers', () => {
  it("a switch through A opens B to visitors, and closing it ends B's visitors' pages at once", async () => {
    const browser = new Client(servers.b.url);
    expectError(await browser.json('GET', '/api/cart'), 401, 'auth/unauthenticated');
    await setOpenTo(servers.owner, 'everyone');
    expect((await browser.json('POST', '/api/cart', { itemid: '1', size: 'Full' })).status).toBe(201);
    const page = await EventStream.open(browser);
    expect(page.status).toBe(200);
    await page.next('snapshot');
    await setOpenTo(servers.owner, 'members');
    await page.ended(1000);
    expect(page.events.map((event) => event.type)).toContain('signed-out');
    expectError(await browser.json('GET', '/api/cart'), 401, 'auth/unauthenticated');
  });

  it("a visitor's cart joins the account's once when the same browser logs in on A and on B at the same moment", async () => {
    await setOpenTo(servers.owner, 'everyone');
    const rider = new Client(servers.a.url);
    const { email } = await rider.signup();
    const browser = new Client(servers.a.url);
    await browser.add('1');
    await browser.add('2');
    const tabs = [servers.a, servers.b, servers.a, servers.b].map((server) => {
      const tab = new Client(server.url, browser.address);
      tab.cookies = new Map(browser.cookies);
      return tab;
    });
    const logins = await Promise.all(tabs.map((tab) => tab.login(email, 'secret1')));
    expect(logins.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    const items = (await rider.json('GET', '/api/cart')).body.items;
    expect(items.map((item: { itemid: string }) => item.itemid)).toEqual(['1', '2']);
  });
});
