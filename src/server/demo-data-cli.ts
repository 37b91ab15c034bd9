// `npm run demo-data -- --products N [--seed S]`: fills a new shop (the eight products of its first start, no orders)
// with products up to N in all, made through the shop's own catalogue store (its rules, slugs, search index and
// history), each in one of the five first categories with five sizes and some stock, and the same shop for the same
// seed. For the benches (bench/finding.ts) and for trying the shop at a size; DATABASE_URL names the database.
import { sql } from 'kysely';
import type { NewProduct } from '../shared/products';
import { createCatalogueStore, type Owner } from './catalogue/catalogue-store';
import { fail, runOnShopDatabase } from './cli';
import { firstCatalogue } from './db/first-catalogue';
import { createStockStore } from './stock/stock-store';

const usage = 'Usage: npm run demo-data -- --products N [--seed S]';
const productsMax = 100_000;

function option(name: string, args: readonly string[]): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args[at + 1];
}

const args = process.argv.slice(2);
const wanted = Number(option('products', args));
const seed = Number(option('seed', args) ?? 1);
const known = new Set(['--products', '--seed']);
if (args.some((arg, i) => i % 2 === 0 && !known.has(arg)) || args.length % 2 !== 0) fail(usage, 2);
if (!Number.isInteger(wanted) || wanted < firstCatalogue.length || wanted > productsMax) {
  fail(`--products must be a whole number from ${firstCatalogue.length} to ${productsMax.toLocaleString('en-US')}.`, 2);
}
if (!Number.isInteger(seed) || seed < 0) fail('--seed must be a whole number from 0.', 2);

/** A small, seeded generator (mulberry32): the same products for the same seed. */
function random(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Kind {
  category: string;
  nouns: readonly string[];
  sizes: readonly string[];
  /** Dollars, from and to. */
  price: [number, number];
}

const kinds: readonly Kind[] = [
  {
    category: 'bridles',
    nouns: ['Bridle', 'Double Bridle', 'Snaffle Bridle'],
    sizes: ['Pony', 'Cob', 'Full', 'Warmblood', 'X-Full'],
    price: [90, 600],
  },
  {
    category: 'saddles',
    nouns: ['Saddle', 'Dressage Saddle', 'Monoflap Saddle'],
    sizes: ['16"', '16.5"', '17"', '17.5"', '18"'],
    price: [900, 6000],
  },
  {
    category: 'boots',
    nouns: ['Tall Boots', 'Field Boots', 'Dress Boots'],
    sizes: ['6', '7', '8', '9', '10'],
    price: [150, 1200],
  },
  {
    category: 'jackets',
    nouns: ['Jacket', 'Show Coat', 'Barn Jacket'],
    sizes: ['XS', 'S', 'M', 'L', 'XL'],
    price: [80, 700],
  },
  {
    category: 'saddle-pads',
    nouns: ['Saddle Pad', 'Numnah', 'Saddle Blanket'],
    sizes: ['Pony', 'Cob', 'Full', 'Warmblood', 'X-Full'],
    price: [30, 250],
  },
];
const makers = [
  'Aldridge',
  'Baroque',
  'Cadence',
  'Davenport',
  'Élan',
  'Fairhaven',
  'Grisone',
  'Halbrook',
  'Isola',
  'Jubilee',
  'Kesteren',
  'Lipica',
  'Marengo',
  'Nordwind',
  'Oldenhof',
  'Pirouette',
  'Quadrille',
  'Rosenau',
  'Saumur',
  'Trakehn',
];
const lines = [
  'Classic',
  'Elite',
  'Grand Prix',
  'Junior',
  'Premier',
  'Schooling',
  'Signature',
  'Sport',
  'Tradition',
  'Working',
];
const colours = ['black', 'brown', 'havana', 'navy', 'grey', 'white', 'burgundy', 'cream'];
const materials = ['leather', 'suede', 'cotton', 'wool', 'waxed cotton', 'microfibre'];
const uses = ['the competition ring', 'everyday schooling', 'young horses', 'long hacks', 'cold mornings at the yard'];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)] as T;
}

/** The product of place `n` (from 0): a kind, a name, details, a price and five sizes with their stock. */
function demoProduct(next: () => number, n: number): { product: NewProduct; category: string } {
  const kind = pick(next, kinds);
  const name = `${pick(next, makers)} ${pick(next, lines)} ${pick(next, kind.nouns)} ${n + 1}`;
  const details = `A ${pick(next, colours)} ${pick(next, materials)} ${pick(next, kind.nouns).toLowerCase()} made for ${pick(next, uses)}.`;
  const [low, high] = kind.price;
  const priceCents = Math.round(low + next() * (high - low)) * 100 - 1;
  // About one size in five sold out, so that 'In stock only' leaves some out.
  const sizes = kind.sizes.map((size) => ({ size, stock: next() < 0.2 ? 0 : 1 + Math.floor(next() * 20) }));
  return { product: { name, details, priceCents, shown: true, sizes }, category: kind.category };
}

const demo: Owner = { uid: null, email: 'npm run demo-data' };

await runOnShopDatabase(async (db) => {
  const orders = await db.kysely
    .selectFrom('shop_order')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const catalogue = createCatalogueStore(db, createStockStore(db));
  const have = (await catalogue.products()).length;
  if (Number(orders.n) > 0 || have !== firstCatalogue.length) {
    fail(`The shop is not new (${have} products, ${Number(orders.n)} orders): demo data goes into a new shop only.`);
  }
  const next = random(seed);
  const started = performance.now();
  for (let n = have; n < wanted; n++) {
    const { product, category } = demoProduct(next, n);
    const made = await catalogue.create(demo, { ...product, categories: [category] });
    if (!made.ok) throw new Error(`product ${n + 1} could not go into ${category}: ${made.reason}`);
  }
  // The planner's statistics of the tables just filled: without them PostgreSQL plans for the eight products it
  // last counted, and reads every product's search row for a search.
  await sql`analyze`.execute(db.kysely);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `Made ${wanted - have} products (seed ${seed}): the shop has ${wanted}, in ${seconds} s.`;
});
