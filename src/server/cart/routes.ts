import { Hono } from 'hono';
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
import type { AddResult, CartStore } from './cart-store';
import { cartStream } from './cart-stream';

const idPattern = /^[0-9a-f-]{1,64}$/i;

const addRefusals: Record<Extract<AddResult, { ok: false }>['reason'], ErrorCode> = {
  full: 'cart/full',
  // Hidden by the owner since this server's copy of the catalogue was read.
  unavailable: 'cart/unavailable',
  // The account was deleted while the request was under way.
  'no-user': 'auth/unauthenticated',
};

/** The cart of the session's user; no route takes a user id from the browser. */
export interface CartRouteParts {
  sessions: Sessions;
  cart: CartStore;
  catalogue: CatalogueStore;
  stock: StockStore;
  streams: LiveStreams;
}

export function cartRoutes({ sessions, cart, catalogue, stock, streams }: CartRouteParts) {
  const session = sessions.require();
  return new Hono<AppEnv>()
    .get(endpoints.cart.path, session, async (c) => c.json({ items: await cart.list(c.get('session').user.uid) }))

    .post(endpoints.addToCart.path, session, async (c) => {
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
      const result = await cart.add(c.get('session').user.uid, product.itemid, chosen.size, limits.cartMaxRows);
      if (!result.ok) throw new HttpError(addRefusals[result.reason]);
      return c.json({ item: result.item }, 201);
    })

    .get(endpoints.cartStream.path, session, (c) => {
      const { user } = c.get('session');
      return streams.open(c, c.get('session'), () => cartStream(cart, user.uid, c.req.query(knownParam)));
    })

    .delete(endpoints.removeFromCart.path, session, async (c) => {
      const id = c.req.param('id');
      if (!idPattern.test(id) || !(await cart.remove(c.get('session').user.uid, id))) {
        throw new HttpError('cart/not-found');
      }
      return c.body(null, 204);
    });
}
