import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { productLimits } from '../../shared/limits';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readBytes, readJson } from '../http/input';
import type { CatalogueStore, ChangeResult } from './catalogue-store';
import { processPicture } from './pictures';

/** The form's fields: a problem with one is `product/invalid`, with the field's path for the form to show it. */
const formFields: Record<string, ErrorCode> = {
  name: 'product/invalid',
  details: 'product/invalid',
  priceCents: 'product/invalid',
  weightGrams: 'product/invalid',
  shown: 'product/invalid',
  sizes: 'product/invalid',
};

/** Item numbers are ours: digits, at most 16 of them. */
const itemidPattern = /^[0-9]{1,16}$/;

function itemidParam(value: string): string {
  if (!itemidPattern.test(value)) throw new HttpError('product/not-found');
  return value;
}

function answer(result: ChangeResult) {
  if (result.ok) return { product: result.product };
  if (result.reason === 'unknown-size') {
    throw new HttpError('product/unknown-size', `This product has no size “${result.size}”.`);
  }
  throw new HttpError(result.reason === 'changed' ? 'product/changed' : 'product/not-found');
}

/**
 * Pictures wait their turn: one is made at a time on a server (the work is the processor's), and `maxWaiting` more
 * uploads may wait; beyond them the owner is asked to try again (`server/busy`). A place is taken once the picture
 * has arrived in full, so that a slow upload holds no place while it comes (an upload still coming is bounded by
 * its pace instead, http/input.ts).
 */
function pictureQueue(maxWaiting: number) {
  let tail: Promise<unknown> = Promise.resolve();
  let admitted = 0;
  return {
    /** Takes a place, or refuses; the function it answers gives the place back (once). */
    admit(): () => void {
      if (admitted > maxWaiting) throw new HttpError('server/busy', undefined, { 'Retry-After': '5' });
      admitted += 1;
      let left = false;
      return () => {
        if (!left) admitted -= 1;
        left = true;
      };
    },
    /** Runs `work` once every picture before it is made. */
    run<T>(work: () => Promise<T>): Promise<T> {
      const run = tail.then(work, work);
      tail = run.catch(() => {});
      return run;
    },
  };
}

/**
 * The owner's catalogue (docs/product.md §13): owners only, like the rest of the back office, for each request.
 * Every change answers the product as it now is, with its new version.
 */
export function productRoutes({ sessions, catalogue }: { sessions: Sessions; catalogue: CatalogueStore }) {
  const owner = sessions.require({ owner: true });
  const pictures = pictureQueue(4);
  return new Hono<AppEnv>()
    .get(endpoints.adminProducts.path, owner, async (c) => c.json({ products: await catalogue.all() }))

    .post(endpoints.adminCreateProduct.path, owner, async (c) => {
      const input = await readJson(c, endpoints.adminCreateProduct.body, formFields, { field: true });
      return c.json({ product: await catalogue.create(c.get('session').user, input) }, 201);
    })

    .put(endpoints.adminOrderProducts.path, owner, async (c) => {
      const { itemids } = await readJson(c, endpoints.adminOrderProducts.body);
      const result = await catalogue.reorder(c.get('session').user, itemids);
      if (!result.ok) throw new HttpError('product/not-every-product');
      return c.json({ products: await catalogue.all() });
    })

    .get(endpoints.adminProduct.path, owner, async (c) => {
      const found = await catalogue.withHistory(itemidParam(c.req.param('itemid')));
      if (!found) throw new HttpError('product/not-found');
      return c.json(found);
    })

    .put(endpoints.adminUpdateProduct.path, owner, async (c) => {
      const itemid = itemidParam(c.req.param('itemid'));
      const edit = await readJson(c, endpoints.adminUpdateProduct.body, formFields, { field: true });
      return c.json(answer(await catalogue.update(c.get('session').user, itemid, edit)));
    })

    .put(endpoints.adminProductPicture.path, owner, async (c) => {
      const itemid = itemidParam(c.req.param('itemid'));
      if (!(await catalogue.find(itemid))) throw new HttpError('product/not-found');
      // Refused from its Content-Length before it is read, as soon as it grows past the limit, or once it falls
      // behind the pace (http/input.ts); only a picture in full waits for its turn.
      const bytes = await readBytes(c, productLimits.pictureMaxBytes, 'picture/too-large');
      const leave = pictures.admit();
      try {
        const made = await pictures.run(() => processPicture(bytes));
        if (!made.ok) throw new HttpError('picture/invalid', made.message);
        return c.json(answer(await catalogue.setPicture(c.get('session').user, itemid, made.thumb, made.large)));
      } finally {
        leave();
      }
    });
}
