import { describe, expect, it } from 'vitest';
import type { StockEvent } from '../../src/shared/api';
import type { AdminProduct } from '../../src/shared/products';
import { Client, sameBrowserOn } from '../support/client';
import { EventStream, openStockStream } from '../support/event-stream';
import { twoServersOnOneSchema } from '../support/two-servers';
import { until } from '../support/until';

/**
 * The owner's catalogue on two servers sharing one PostgreSQL schema (docs/decisions/0024-owners-catalogue.md): each
 * keeps the products in memory, and a change saved through one reaches the other's cache and open pages at once.
 */
const servers = twoServersOnOneSchema({ owner: true });

async function product(itemid: string): Promise<AdminProduct> {
  return (await servers.owner.json('GET', `/api/admin/products/${itemid}`)).body.product;
}

function form(p: AdminProduct, changes: Record<string, unknown>) {
  const sizes = p.sizes.map((s) => ({ size: s.size, stock: s.stock, stockShown: s.stock }));
  return {
    name: p.name,
    details: p.details,
    priceCents: p.priceCents,
    shown: p.shown,
    sizes,
    version: p.version,
    ...changes,
  };
}

describe("the owner's catalogue on two servers", () => {
  it("a price saved through A: B's cart page, home page and catalogue have it within a second", async () => {
    const rider = new Client(servers.b.url);
    await rider.signup();
    await rider.add('3');
    // B has read the catalogue (its cache is warm) before the change.
    expect((await rider.json('GET', '/api/catalogue')).body.products[2].priceCents).toBe(49999);
    const cartPage = await EventStream.open(rider);
    const homePage = await openStockStream(rider);
    try {
      await cartPage.next('snapshot');
      await homePage.next('products');
      const saved = await servers.owner.json(
        'PUT',
        '/api/admin/products/3',
        form(await product('3'), { priceCents: 45999 }),
      );
      expect(saved.status).toBe(200);
      const cart = await cartPage.next('snapshot', 1000, 1);
      expect(cart.items.map((i) => i.priceCents)).toEqual([45999]);
      const home = await homePage.next('products', 1000, 1);
      expect(home.products.find((p) => p.itemid === '3')?.priceCents).toBe(45999);
    } finally {
      cartPage.close();
      homePage.close();
    }
    expect((await rider.json('GET', '/api/catalogue')).body.products[2].priceCents).toBe(45999);
    // The add through B copies the new price too.
    expect((await rider.add('3')).priceCents).toBe(45999);
  });

  it("an order through A: B's home page carries a new version, and a page of B's from before gets the stock", async () => {
    const watcher = new Client(servers.b.url);
    await watcher.signup();
    const versionOfHome = async () => {
      const html = String((await watcher.raw('GET', '/home')).body);
      const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? '';
      return encodeURIComponent(JSON.parse(data).catalogue.version);
    };
    const before = await versionOfHome();
    const buyer = new Client(servers.a.url);
    await buyer.signupConfirmed();
    const order = await buyer.order('5');
    const [line] = order.lines;
    await until(async () => (await versionOfHome()) !== before, 2000, "B's home page with a new version");
    const stream = await EventStream.open<StockEvent>(watcher, `/api/catalogue/stream?known=${before}`);
    try {
      const { stock } = await stream.next('snapshot');
      const now = (await servers.owner.json('GET', '/api/admin/products/5')).body.product as AdminProduct;
      expect(stock).toContainEqual({
        itemid: '5',
        size: line?.size,
        stock: now.sizes.find((s) => s.size === line?.size)?.stock,
      });
    } finally {
      stream.close();
    }
  });

  it("an order through A: B's product page, kept in B's memory, has the size's new stock", async () => {
    const watcher = new Client(servers.b.url);
    await watcher.signup();
    const products = (await watcher.json('GET', '/api/catalogue')).body.products as { itemid: string; slug: string }[];
    const slug = products.find((p) => p.itemid === '6')?.slug;
    const stockOnB = async (size: string | null | undefined) => {
      const reply = await watcher.json('GET', `/api/products/${slug}`);
      expect(reply.status).toBe(200);
      const sizes = reply.body.product.sizes as { size: string; stock: number }[];
      return sizes.find((s) => s.size === size)?.stock;
    };
    const buyer = new Client(servers.a.url);
    await buyer.signupConfirmed();
    const sizeBought = (await product('6')).sizes[0]?.size;
    // B reads the page twice: the second answer is the one it keeps.
    const before = await stockOnB(sizeBought);
    expect(await stockOnB(sizeBought)).toBe(before);
    await buyer.add('6', sizeBought);
    const order = await buyer.placeOrder();
    expect(order.status).toBe(201);
    await until(async () => (await stockOnB(sizeBought)) === (before ?? 0) - 1, 2000, "B's page with the new stock");
  });

  it('a product hidden through A cannot be added through B; shown again, it can', async () => {
    const rider = new Client(servers.a.url);
    await rider.signup();
    const onB = sameBrowserOn(servers.b.url, rider);
    expect((await onB.json('GET', '/api/catalogue')).body.products.some((p: { itemid: string }) => p.itemid === '6'));
    const hidden = await servers.owner.json('PUT', '/api/admin/products/6', form(await product('6'), { shown: false }));
    expect(hidden.status).toBe(200);
    expect((await onB.json('POST', '/api/cart', { itemid: '6', size: 'Full' })).body.code).toBe('cart/unavailable');
    // B's list is from its memory until the catalogue topic reaches it (catalogue-store.ts), as for the pages above.
    const listedOnB = async () =>
      ((await onB.json('GET', '/api/catalogue')).body.products as { itemid: string }[]).map((p) => p.itemid);
    await until(async () => !(await listedOnB()).includes('6'), 2000, "B's list without the hidden product");
    expect(await listedOnB()).not.toContain('6');
    expect(
      (await servers.owner.json('PUT', '/api/admin/products/6', form(hidden.body.product, { shown: true }))).status,
    ).toBe(200);
    expect((await onB.json('POST', '/api/cart', { itemid: '6', size: 'Full' })).status).toBe(201);
  });

  it("a hidden product's stock changed on A never reaches a page on B; shown again, B's page has it as it is", async () => {
    const hidden = await servers.owner.json('PUT', '/api/admin/products/4', form(await product('4'), { shown: false }));
    expect(hidden.status).toBe(200);
    const rider = new Client(servers.b.url);
    await rider.signup();
    const stream = await openStockStream(rider);
    try {
      const { stock } = await stream.next('snapshot');
      expect(stock.filter((size) => size.itemid === '4')).toEqual([]);
      // On A: the hidden product's stock, then a shown product's. B's page hears the second alone.
      await servers.a.stock.set(3, { itemid: '4' });
      await servers.a.stock.set(8, { itemid: '1', size: 'Full' });
      expect(await stream.next('stock')).toEqual({ type: 'stock', itemid: '1', size: 'Full', stock: 8 });
      expect(stream.events.filter((event) => event.type === 'stock' && event.itemid === '4')).toEqual([]);
      const shown = await servers.owner.json('PUT', '/api/admin/products/4', form(await product('4'), { shown: true }));
      expect(shown.status).toBe(200);
      const again = await stream.next('snapshot', 3000, 1);
      expect(again.stock.filter((size) => size.itemid === '4').map((size) => size.stock)).toEqual([3, 3, 3, 3, 3]);
    } finally {
      stream.close();
    }
  });

  it("B's copy of the catalogue after its listener was cut: a change made meanwhile shows once B is back", async () => {
    const price = async () =>
      (await new Client(servers.b.url).json('GET', '/api/catalogue')).body.products.find(
        (p: { itemid: string }) => p.itemid === '8',
      )?.priceCents;
    expect(await price()).toBe(34449);
    // As a database restart or a network failure would: B hears nothing until it has listened again.
    const killed = await servers.schema.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and query ilike 'LISTEN%'`,
      [`${servers.schema.schema}_b`],
    );
    expect(killed.rowCount).toBe(1);
    const saved = await servers.owner.json(
      'PUT',
      '/api/admin/products/8',
      form(await product('8'), { priceCents: 35000 }),
    );
    expect(saved.status).toBe(200);
    // B drops its copy when it listens again (it may have missed changes), and reads the new price.
    const deadline = Date.now() + 15_000;
    while ((await price()) !== 35000) {
      if (Date.now() > deadline) throw new Error('B still shows the old price 15 s after the change');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('two owners on two servers saving one product at once: one wins, the other is told it changed', async () => {
    const second = sameBrowserOn(servers.b.url, servers.owner);
    const seen = await product('7');
    const [first, other] = await Promise.all([
      servers.owner.json('PUT', '/api/admin/products/7', form(seen, { priceCents: 38000 })),
      second.json('PUT', '/api/admin/products/7', form(seen, { priceCents: 39000 })),
    ]);
    expect([first.status, other.status].sort()).toEqual([200, 409]);
    expect((await product('7')).version).toBe(seen.version + 1);
  });
});
