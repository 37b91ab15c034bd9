// `npm run demo-data -- [--products N] [--riders N] [--orders N] [--seed S]`: fills a new shop (the eight products of
// its first start, no accounts, no orders) with products up to N in all, riders who can sign in, and two years of their
// orders, through the shop's own stores and rules, the same shop for the same seed (docs/decisions/0046-a-big-shop.md).
// For the benches (bench/finding.ts) and for trying the shop at a size; DATABASE_URL names the database.
import { sql } from 'kysely';
import { createAuth } from './auth/auth';
import type { Owner } from './auth/owner';
import { nudgeCarts } from './cart/cart-nudge';
import { createCartStore } from './cart/cart-store';
import { createCatalogueStore } from './catalogue/catalogue-store';
import { fail, runOnShopDatabase, shopOutbox } from './cli';
import { batchingDb } from './db/database';
import { firstCatalogue } from './db/migrations/0009-owners-catalogue';
import { dayMs, planOrders, runPlan, type ShelfProduct, spanMs } from './demo/orders';
import { makeProducts } from './demo/products';
import { random } from './demo/random';
import { demoRiders, makeRiders } from './demo/riders';
import { createDiscountStore } from './discounts/discount-store';
import type { Outbox } from './mail/outbox';
import { createOrderStore } from './orders/order-store';
import { createSettingsStore } from './settings/settings-store';
import { createStockStore } from './stock/stock-store';

const usage = 'Usage: npm run demo-data -- [--products N] [--riders N] [--orders N] [--seed S]';

/** Each option: its default (small: a shop to look at in a moment), and its bounds. */
const options = {
  products: { default: 200, min: firstCatalogue.length, max: 100_000 },
  riders: { default: 100, min: 0, max: 1_000_000 },
  orders: { default: 500, min: 0, max: 10_000_000 },
  seed: { default: 1, min: 0, max: 2 ** 32 - 1 },
} as const;
type Name = keyof typeof options;

/** Every demo rider's password, printed at the end. */
const demoPassword = 'piaffe-demo';

/** Whoever changes the catalogue and the settings, and moves the orders, for the demo. */
const demo: Owner = { uid: null, email: 'npm run demo-data' };

function readOptions(args: readonly string[]): Record<Name, number> {
  if (args.length % 2 !== 0) fail(usage, 2);
  const given = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) given.set(args[i] as string, args[i + 1] as string);
  const known = new Set(Object.keys(options).map((name) => `--${name}`));
  if ([...given.keys()].some((flag) => !known.has(flag))) fail(usage, 2);
  const read = {} as Record<Name, number>;
  for (const [name, { default: fallback, min, max }] of Object.entries(options) as [Name, (typeof options)[Name]][]) {
    const text = given.get(`--${name}`);
    const value = text === undefined ? fallback : Number(text);
    if (text?.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      fail(`--${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`, 2);
    }
    read[name] = value;
  }
  if (read.orders > 0 && read.riders === 0) fail('--orders needs riders to place them: give --riders 1 or more.', 2);
  return read;
}

const wanted = readOptions(process.argv.slice(2));
const { seed } = wanted;
/** Each part of the shop from a generator of its own, so that, say, more riders leave the products as they were. */
const seeds = { products: seed, riders: seed ^ 0x52494445, signUps: seed ^ 0x5349474e, orders: seed ^ 0x4f524452 };

/**
 * E-mails are not written: the demo's riders are nobody's, and two years of a shop's e-mails (a confirmation, a
 * payment and a shipping for each order) would leave hundreds of thousands waiting to be sent at the first start.
 */
const noMail: Pick<Outbox, 'enqueue'> = { enqueue: async () => {} };

/** The demo shop charges Florida's sales tax on what it sends there (its prices include it, as a new shop's do). */
const floridaTax = { name: 'FL sales tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 6000 };

await runOnShopDatabase(
  async (plain, { config, auth, log }) => {
    const count = (table: 'shop_order' | 'user') =>
      plain.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    const db = batchingDb(plain);
    // A new shop: no rider waits for a size, so its restocks write no e-mail.
    const stock = createStockStore(db, shopOutbox(db, config));
    const settings = createSettingsStore(db);
    const catalogue = createCatalogueStore(db, stock, settings, nudgeCarts);
    const have = (await catalogue.products()).length;
    const [orders, accounts] = [await count('shop_order'), await count('user')];
    if (orders > 0 || accounts > 0 || have !== firstCatalogue.length) {
      fail(
        `The shop is not new (${have} products, ${accounts} accounts, ${orders} orders): demo data goes into a new shop only.`,
      );
    }
    // A new shop filled from nothing: if the machine fails mid-way the fill is simply made again, so SQLite need not
    // wait for the disk at each commit. The end makes it all durable (below).
    if (db.dialect === 'sqlite') await sql`pragma synchronous = off`.execute(db.kysely);
    const started = performance.now();
    const took: string[] = [];
    const lap = (what: string, from: number) =>
      took.push(`${what} ${((performance.now() - from) / 1000).toFixed(1)} s`);

    let from = performance.now();
    await makeProducts(db, catalogue, demo, { have, wanted: wanted.products, seed: seeds.products });
    lap('products', from);

    const { version, ...document } = await settings.current();
    const taxed = await settings.save(demo, { ...document, version, tax: { ...document.tax, rates: [floridaTax] } });
    if (!taxed.ok) throw new Error('The settings changed while the demo data was being made.');

    from = performance.now();
    const sizes = new Map<string, string[]>();
    for (const { itemid, size } of await stock.all()) sizes.set(itemid, [...(sizes.get(itemid) ?? []), size]);
    const shelf: ShelfProduct[] = (await catalogue.products()).flatMap((product) => {
      const of = sizes.get(product.itemid) ?? [];
      return product.shown && of.length > 0 ? [{ itemid: product.itemid, sizes: of }] : [];
    });
    const end = Date.now();
    const plan = planOrders(seeds.orders, { count: wanted.orders, riders: wanted.riders, shelf, end });
    const riders = demoRiders(seeds.riders, wanted.riders);
    const passwordHash = await (await auth.$context).password.hash(demoPassword);
    const signUps = random(seeds.signUps);
    // A rider signed up some days before a first order, or at any time of the two years for one who never ordered.
    const signedUpAt = (n: number) => {
      const first = plan.firstOrderAt[n];
      const ago = signUps();
      return Math.round(first === undefined ? end - ago * spanMs : first - ago * 30 * dayMs);
    };
    await makeRiders(plain, (uow) => createAuth(uow.trx, plain.dialect, config, log), riders, {
      passwordHash,
      signedUpAt,
    });
    lap('riders', from);

    /** The statistics of the tables filled so far (before the orders, and as they grow: see `runPlan`). */
    const analyze = async () => {
      await sql`analyze`.execute(db.kysely);
    };
    from = performance.now();
    let now = end;
    const cart = createCartStore(db);
    const discounts = createDiscountStore(db, settings);
    const orderStore = createOrderStore({
      db,
      cart,
      stock,
      outbox: noMail,
      discounts,
      settings,
      cardPaymentMs: config.cardPaymentMs,
      // No card orders: a card's payment and refund are Stripe's, which a demo cannot reach.
      beforeCancel: new Map(),
      clock: () => now,
    });
    const tick = (at: number) => {
      now = at;
    };
    await analyze();
    await runPlan(
      { db, cart, stock, orders: orderStore, tick, owner: { ...demo, role: 'owner' }, analyze },
      plan,
      riders,
    );
    lap('orders', from);

    // The planner's statistics of the tables just filled: without them PostgreSQL plans for the eight products it
    // last counted, and reads every product's search row for a search. PostgreSQL's VACUUM also marks the pages all
    // visible, so that a count reads an index alone, as its autovacuum would in a shop that grew over years.
    await sql.raw(db.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db.kysely);
    if (db.dialect === 'sqlite') {
      await sql`pragma synchronous = full`.execute(db.kysely);
      // Copies the whole fill into the database file, each page synced to the disk.
      await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const n = (value: number) => value.toLocaleString('en-US');
    const made = `Made ${n(wanted.products - have)} products, ${n(wanted.riders)} riders and ${n(wanted.orders)} orders`;
    const example = riders[0] ? ` (${riders[0].email}, say)` : '';
    return [
      `${made} (seed ${seed}) in ${seconds} s (${took.join(', ')}): the shop has ${n(wanted.products)} products.`,
      `Every rider signs in with the password '${demoPassword}'${example}.`,
    ].join('\n');
    // Alone from the check that the shop is new to the fill's end: no server can start meanwhile, so no rider signs up
    // and no order is placed between the check and the fill, nor during it.
  },
  { alone: true },
);
