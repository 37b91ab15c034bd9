// The floor of Piaffe's cart list (GET /api/cart), written by hand (bench/README.md).
import type SQLite from 'better-sqlite3';
import { cartWriteRoutes } from './floor-cart-add';
import { error, type Handler, openFloorDatabase, reply, riderOf, serveFloor, signUpRoute } from './support/floor-kit';

/** The session from the Map, one prepared SELECT on the (uid, created_at) index, the rows as Piaffe's JSON. */
export function cartListRoute(db: SQLite.Database): Handler {
  // The columns come out named as the API's fields, so the rows are the answer's items as they are.
  const list = db.prepare(
    `select "id", "uid", "itemid", "name", "price_cents" as "priceCents", "details", "size" from "cart_item" where "uid" = ? order by "created_at", "id"`,
  );
  return (request, response) => {
    const rider = riderOf(request);
    if (!rider) return error(response, 401, 'auth/unauthenticated');
    reply(response, 200, { items: list.all(rider.uid) });
  };
}

const database = openFloorDatabase(process.argv[3]);
serveFloor(
  {
    'POST /api/auth/signup': signUpRoute(database.db),
    // Only to fill the cart before the measurement.
    'POST /api/cart': cartWriteRoutes(database.db).add,
    'GET /api/cart': cartListRoute(database.db),
  },
  database.remove,
);
