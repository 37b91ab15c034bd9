// The floor of Piaffe's cart list (GET /api/cart), written by hand (bench/README.md).
import type SQLite from 'better-sqlite3';
import { cartWriteRoutes } from './floor-cart-add';
import { error, type Handler, openFloorDatabase, reply, riderOf, serveFloor, signUpRoute } from './support/floor-kit';

/**
 * The session from the Map, one prepared SELECT on the (uid, created_at) index joined to each row's product and size
 * (whether it can still be ordered), the rows as Piaffe's JSON.
 */
export function cartListRoute(db: SQLite.Database): Handler {
  // The columns come out named as the API's fields, so the rows are the answer's items once `available` is a boolean.
  const list = db.prepare(
    `select c."id", c."uid", c."itemid", c."name", c."price_cents" as "priceCents", c."details", c."size",
       (p."shown" = 1 and (c."size" is null or s."size" is not null)) as "available"
     from "cart_item" c
     left join "product" p on p."itemid" = c."itemid"
     left join "product_size" s on s."itemid" = c."itemid" and s."size" = c."size"
     where c."uid" = ? order by c."created_at", c."id"`,
  );
  return (request, response) => {
    const rider = riderOf(request);
    if (!rider) return error(response, 401, 'auth/unauthenticated');
    const items = (list.all(rider.uid) as { available: number }[]).map((row) => ({
      ...row,
      available: row.available === 1,
    }));
    reply(response, 200, { items });
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
