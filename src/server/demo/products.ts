// The products of the demo data (`npm run demo-data`, docs/decisions/0046-a-big-shop.md): each in one of the five first
// categories, with five sizes and some stock, made through the shop's own catalogue store (its rules, slugs, search
// index and history), the same products for the same seed.
import type { NewProduct } from '../../shared/products';
import type { Owner } from '../auth/owner';
import type { CatalogueStore } from '../catalogue/catalogue-store';
import type { BatchingDb } from '../db/database';
import { pick, random } from './random';

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

/** Products made in one unit of work. */
const productsPerBatch = 250;

/** Makes the products of places `have` to `wanted` (from 0) for `seed`, by `owner`, a batch at a time. */
export async function makeProducts(
  db: BatchingDb,
  catalogue: CatalogueStore,
  owner: Owner,
  { have, wanted, seed }: { have: number; wanted: number; seed: number },
): Promise<void> {
  const next = random(seed);
  for (let from = have; from < wanted; from += productsPerBatch) {
    await db.batch(async () => {
      for (let n = from; n < Math.min(wanted, from + productsPerBatch); n++) {
        const { product, category } = demoProduct(next, n);
        const made = await catalogue.create(owner, { ...product, categories: [category] });
        if (!made.ok) throw new Error(`product ${n + 1} could not go into ${category}: ${made.reason}`);
      }
    });
  }
}
