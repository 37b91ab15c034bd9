import { type Context, Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { limits } from '../../shared/limits';
import { knownParam } from '../../shared/live-streams';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import type { CatalogueStore } from '../catalogue/catalogue-store';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { LiveStreams } from '../live/live-streams';
import type { StockStore } from '../stock/stock-store';
import type { AddResult, CartOwner, CartStore } from './cart-store';
import { cartStream } from './cart-stream';
import type { VisitorCarts } from './visitor-carts';

const idPattern = /^[0-9a-f-]{1,64}$/i;

const addRefusals: Record<Extract<AddResult, { ok: false }>['reason'], ErrorCode> = {
  full: 'cart/full',
  // Hidden by the owner since this server's copy of the catalogue was read.
  unavailable: 'cart/unavailable',
  // The account was deleted while the request was under way.
  'no-user': 'auth/unauthenticated',
};

/**
 * The cart of the session's user, or of the visitor's cart cookie when the shop is open to everyone (the access gate
 * has checked that, src/server/auth/access-gate.ts); no route takes a user id or a cart id from the browser.
 */
export interface CartRouteParts {
  sessions: Sessions;
  cart: CartStore;
  visitorCarts: VisitorCarts;
  catalogue: CatalogueStore;
  stock: StockStore;
  streams: LiveStreams;
}

export function cartRoutes({ sessions, cart, visitorCarts, catalogue, stock, streams }: CartRouteParts) {
  /**
   * Whose cart the request is for: the rider's, or the visitor's; a visitor without one gets one made (`make`: an add,
   * a stream) or none (a read, a removal: an empty cart).
   */
  async function ownerOf(c: Context<AppEnv>, make: boolean): Promise<CartOwner | undefined> {
    const session = await sessions.find(c);
    if (session) return { uid: session.user.uid };
    const visitor = make ? await visitorCarts.findOrMake(c) : await visitorCarts.find(c);
    return visitor === undefined ? undefined : { visitor };
  }

  return new Hono<AppEnv>()
    .get(endpoints.cart.path, async (c) => {
      const owner = await ownerOf(c, false);
      return c.json({ items: owner ? await cart.list(owner) : [] });
    })

    .post(endpoints.addToCart.path, async (c) => {
      const { itemid, size } = await readJson(c, endpoints.addToCart.body);
      const product = await catalogue.find(itemid);
      if (!product) throw new HttpError('cart/unknown-item');
      // A page showing the catalogue from before the owner hid the product.
      if (!product.shown) throw new HttpError('cart/unavailable');
      // A product that comes in one size needs none named; one with several needs one of its own.
      const sizes = await stock.sizesOf(itemid);
      const chosen =
        size === undefined ? (sizes.length === 1 ? sizes[0] : undefined) : sizes.find((s) => s.size === size);
      if (!chosen) throw new HttpError('cart/invalid-size');
      // A cart holds no stock: this only turns away what cannot be ordered now (a page showing old stock).
      if (chosen.stock <= 0) throw new HttpError('cart/sold-out');
      const owner = await ownerOf(c, true);
      if (!owner) throw new HttpError('auth/unauthenticated');
      const result = await cart.add(owner, product.itemid, chosen.size, limits.cartMaxRows);
      if (!result.ok) throw new HttpError(addRefusals[result.reason]);
      return c.json({ item: result.item }, 201);
    })

    .get(endpoints.cartStream.path, async (c) => {
      const session = (await sessions.find(c)) ?? undefined;
      if (c.req.method === 'HEAD') return streams.open(c, session, () => ({ start: async () => '' }));
      // A visitor's first tab gets its cart made now, so that an add in another tab reaches this one.
      const owner = await ownerOf(c, true);
      if (!owner) throw new HttpError('auth/unauthenticated');
      return streams.open(c, session, () => cartStream(cart, owner, c.req.query(knownParam)));
    })

    .delete(endpoints.removeFromCart.path, async (c) => {
      const id = c.req.param('id');
      const owner = await ownerOf(c, false);
      if (!idPattern.test(id) || !owner || !(await cart.remove(owner, id))) {
        throw new HttpError('cart/not-found');
      }
      return c.body(null, 204);
    });
}
