import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/client';
import { EventStream } from '../support/event-stream';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('live cart stream', () => {
  it('starts with a snapshot, then follows adds and deletes made by another client of the same user', async () => {
    const tab = new Client(server.url);
    const user = await tab.signup();
    await tab.add('1');
    const otherDevice = new Client(server.url);
    expect((await otherDevice.login(user.email, 'secret1')).status).toBe(200);

    const stream = await EventStream.open(tab);
    expect(stream.status).toBe(200);
    const snapshot = await stream.next('snapshot');
    expect(snapshot.items.map((i) => i.itemid)).toEqual(['1']);

    const added = await otherDevice.add('8');
    expect((await stream.next('added')).item).toEqual(added);
    expect((await otherDevice.json('DELETE', `/api/cart/${added.id}`)).status).toBe(204);
    expect((await stream.next('removed')).id).toBe(added.id);
    stream.close();
  });

  it("sends no first snapshot to a cart page that shows the cart as it is (its HTML's version), and the cart to another", async () => {
    const tab = new Client(server.url);
    await tab.signup();
    const first = await tab.add('1');
    const html = String((await tab.raw('GET', '/cart')).body);
    const data = JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? '');
    expect(data.cart.items).toEqual([first]);
    const version = encodeURIComponent(data.cart.version);
    const known = await EventStream.open(tab, `/api/cart/stream?known=${version}`);
    expect(known.status).toBe(200);
    const added = await tab.add('8');
    expect((await known.next('added')).item).toEqual(added);
    // Nothing came before the change: the page had the cart.
    expect(known.events.map((event) => event.type)).toEqual(['added']);
    known.close();

    // The version is no longer the cart's, and nonsense is no version: both get the cart.
    for (const query of [`known=${version}`, 'known=nonsense', `known=${'x'.repeat(5000)}`]) {
      const stream = await EventStream.open(tab, `/api/cart/stream?${query}`);
      expect((await stream.next('snapshot')).items, query).toEqual([first, added]);
      stream.close();
    }
  });

  it("does not show one user's changes on another user's stream", async () => {
    const alice = new Client(server.url);
    const bob = new Client(server.url);
    await alice.signup();
    await bob.signup();
    const bobStream = await EventStream.open(bob);
    await bobStream.next('snapshot');
    await alice.add('2');
    await bob.add('3');
    const added = await bobStream.next('added');
    expect(added.item.itemid).toBe('3');
    expect(bobStream.events.filter((e) => e.type === 'added')).toHaveLength(1);
    bobStream.close();
  });

  it('refuses a stream without a session', async () => {
    const stream = await EventStream.open(new Client(server.url));
    expect(stream.status).toBe(401);
  });

  it('tells the stream and closes it when the session ends elsewhere', async () => {
    const tab = new Client(server.url);
    await tab.signup();
    const stream = await EventStream.open(tab);
    await stream.next('snapshot');
    expect((await tab.json('POST', '/api/auth/logout')).status).toBe(204);
    await stream.next('signed-out');
    await stream.ended();
  });

  it("keeps a stream open when another of the user's sessions logs out", async () => {
    const tab = new Client(server.url);
    const user = await tab.signup();
    const other = new Client(server.url);
    await other.login(user.email, 'secret1');
    const stream = await EventStream.open(tab);
    await stream.next('snapshot');
    await other.json('POST', '/api/auth/logout');
    await tab.add('5');
    await stream.next('added');
    expect(stream.events.some((e) => e.type === 'signed-out')).toBe(false);
    stream.close();
  });
});
