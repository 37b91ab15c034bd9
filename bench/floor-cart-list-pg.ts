// The floor of Piaffe's cart list (GET /api/cart) on PostgreSQL, written by hand (bench/README.md): floor-cart-list.ts's
// work, its statement prepared on each of the pool's connections.
import type pg from 'pg';
import { postgresCartAddRoute } from './floor-cart-add-pg';
import { error, type Handler, reply, riderOf, serveFloor } from './support/floor-kit';
import { openFloorPool, postgresSignUpRoute, prepared } from './support/floor-kit-pg';

/**
 * The session from the Map, one prepared SELECT on the (uid, created_at) index joined to each row's product and size
 * (whether it can still be ordered), the rows as Piaffe's JSON: PostgreSQL's boolean is the answer's.
 */
export function postgresCartListRoute(pool: pg.Pool): Handler {
  const list = prepared(
    'cart-list',
    `select c."id", c."uid", c."itemid", c."name", c."price_cents" as "priceCents", c."details", c."size",
       coalesce(p."shown" = 1 and (c."size" is null or s."size" is not null), false) as "available"
     from "cart_item" c
     left join "product" p on p."itemid" = c."itemid"
     left join "product_size" s on s."itemid" = c."itemid" and s."size" = c."size"
     where c."uid" = $1 order by c."created_at", c."id"`,
  );
  return async (request, response) => {
    const rider = riderOf(request);
    if (!rider) return error(response, 401, 'auth/unauthenticated');
    reply(response, 200, { items: await list(pool, rider.uid) });
  };
}

const pool = openFloorPool(process.argv[3]);
serveFloor({
  'POST /api/auth/signup': postgresSignUpRoute(pool),
  // Only to fill the cart before the measurement.
  'POST /api/cart': await postgresCartAddRoute(pool),
  'GET /api/cart': postgresCartListRoute(pool),
});
