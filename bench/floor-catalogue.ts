// The floor of Piaffe's catalogue request (GET /api/catalogue, the home page's first data), written by hand
// (bench/README.md).
import type SQLite from 'better-sqlite3';
import type { CatalogueProduct } from '../src/shared/api';
import { type Handler, openFloorDatabase, reply, serveFloor } from './support/floor-kit';

/**
 * The products the owner shows, in memory (as Piaffe keeps them between the owner's changes), and every size's stock
 * from one prepared SELECT per request (stock changes with every order, so neither caches it), as Piaffe's JSON.
 */
export function catalogueRoute(db: SQLite.Database): Handler {
  const products = db
    .prepare(
      `select "itemid", "name", "price_cents" as "priceCents", "details", "pic", "largepic" from "product"
       where "shown" = 1 order by "position", "itemid"`,
    )
    .all() as Omit<CatalogueProduct, 'sizes'>[];
  const stock = db.prepare(`select "itemid", "size", "stock" from "product_size" order by "itemid", "position"`);
  return (_request, response) => {
    const sizes = new Map<string, CatalogueProduct['sizes']>(products.map((p) => [p.itemid, []]));
    for (const row of stock.all() as { itemid: string; size: string; stock: number }[]) {
      sizes.get(row.itemid)?.push({ size: row.size, stock: row.stock });
    }
    reply(response, 200, { products: products.map((p) => ({ ...p, sizes: sizes.get(p.itemid) ?? [] })) });
  };
}

const database = openFloorDatabase(process.argv[3]);
serveFloor({ 'GET /api/catalogue': catalogueRoute(database.db) }, database.remove);
