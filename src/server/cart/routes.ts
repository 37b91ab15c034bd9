import { Hono } from 'hono';
import { findProduct } from '../../shared/catalogue';
import { addToCartSchema, limits } from '../../shared/validation';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/session';
import type { Store } from '../db/store';
import { readJson } from '../http/body';
import { HttpError } from '../http/errors';
import type { LiveStreams } from './live-stream';

const idPattern = /^[0-9a-f-]{1,64}$/i;

/** The cart of the session's user; no route takes a user id from the browser. */
export function cartRoutes(sessions: Sessions, store: Store, streams: LiveStreams) {
  return new Hono<AppEnv>()
    .use(sessions.require())

    .get('/', async (c) => c.json({ items: await store.cart.list(c.get('user').uid) }))

    .post('/', async (c) => {
      const { itemid } = await readJson(c, addToCartSchema);
      const product = findProduct(itemid);
      if (!product) throw new HttpError('cart/unknown-item');
      const result = await store.cart.add(c.get('user').uid, product, limits.cartMaxRows);
      if (!result.ok) throw new HttpError(result.reason === 'full' ? 'cart/full' : 'auth/unauthenticated');
      return c.json({ item: result.item }, 201);
    })

    .get('/stream', (c) => streams.open(c, c.get('user').uid))

    .delete('/:id', async (c) => {
      const id = c.req.param('id');
      if (!idPattern.test(id) || !(await store.cart.remove(c.get('user').uid, id))) {
        throw new HttpError('cart/not-found');
      }
      return c.body(null, 204);
    });
}
