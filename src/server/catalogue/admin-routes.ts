import { type Context, Hono } from 'hono';
import { endpoints } from '../../shared/api';
import { categoryMessages } from '../../shared/categories';
import type { ErrorCode } from '../../shared/errors';
import { findingLimits, productLimits } from '../../shared/limits';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readBytes, readJson, readQuery } from '../http/input';
import type { CatalogueStore } from './catalogue-store';
import type { CategoryResult, CategoryStore } from './category-store';
import { type PictureResult, processPicture } from './pictures';
import type { PicturesResult } from './product-pictures';

/** The form's fields: a problem with one is `product/invalid`, with the field's path for the form to show it. */
const formFields: Record<string, ErrorCode> = {
  name: 'product/invalid',
  details: 'product/invalid',
  priceCents: 'product/invalid',
  weightGrams: 'product/invalid',
  shown: 'product/invalid',
  sizes: 'product/invalid',
  categories: 'product/invalid',
  sizeGuide: 'product/invalid',
};

/** A category's form: its name and size guide. */
const categoryFields: Record<string, ErrorCode> = { name: 'category/invalid', sizeGuide: 'category/invalid' };

/** A slug as categories have them: at most as long as the list's query takes. */
function slugParam(value: string): string {
  if (value.length > findingLimits.slugMax) throw new HttpError('category/not-found');
  return value;
}

/** The order of a product's pictures: a problem with it is told as the form's. */
const pictureFields: Record<string, ErrorCode> = { order: 'product/invalid' };

/** Item numbers are ours: digits, at most 16 of them. */
const itemidPattern = /^[0-9]{1,16}$/;

function itemidParam(value: string): string {
  if (!itemidPattern.test(value)) throw new HttpError('product/not-found');
  return value;
}

function answer(result: PicturesResult) {
  if (result.ok) return { product: result.product };
  switch (result.reason) {
    case 'unknown-size':
      throw new HttpError('product/unknown-size', `This product has no size “${result.size}”.`);
    case 'unknown-category':
      throw new HttpError('product/invalid', `There is no category “${result.category}”.`, {}, { field: 'categories' });
    case 'unknown-picture':
      throw new HttpError(
        'product/invalid',
        'The order may name only the places of the product’s pictures.',
        {},
        {
          field: 'order',
        },
      );
    case 'too-many':
      throw new HttpError('picture/too-many');
    case 'changed':
      throw new HttpError('product/changed');
    default:
      throw new HttpError('product/not-found');
  }
}

function categoryAnswer(result: CategoryResult) {
  if (result.ok) return { category: result.category };
  switch (result.reason) {
    case 'name-taken':
      throw new HttpError('category/invalid', categoryMessages.nameTaken, {}, { field: 'name' });
    case 'too-many':
      throw new HttpError('category/invalid', categoryMessages.tooMany, {}, { field: 'name' });
    case 'changed':
      throw new HttpError('category/changed');
    default:
      throw new HttpError('category/not-found');
  }
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
export function productRoutes({
  sessions,
  catalogue,
  categories,
}: {
  sessions: Sessions;
  catalogue: CatalogueStore;
  categories: CategoryStore;
}) {
  const owner = sessions.require({ owner: true });
  const pictures = pictureQueue(4);

  /**
   * Reads an uploaded picture and makes its two files, one at a time on a server. Refused from its Content-Length
   * before it is read, as soon as it grows past the limit, or once it falls behind the pace (http/input.ts); only a
   * picture in full waits for its turn.
   */
  async function upload<T>(
    c: Context<AppEnv>,
    save: (made: Extract<PictureResult, { ok: true }>) => Promise<T>,
  ): Promise<T> {
    const bytes = await readBytes(c, productLimits.pictureMaxBytes, 'picture/too-large');
    const leave = pictures.admit();
    try {
      const made = await pictures.run(() => processPicture(bytes));
      if (!made.ok) throw new HttpError('picture/invalid', made.message);
      return await save(made);
    } finally {
      leave();
    }
  }

  return new Hono<AppEnv>()
    .get(endpoints.adminProducts.path, owner, async (c) => c.json({ products: await catalogue.all() }))

    .post(endpoints.adminCreateProduct.path, owner, async (c) => {
      const input = await readJson(c, endpoints.adminCreateProduct.body, formFields);
      return c.json(answer(await catalogue.create(c.get('session').user, input)), 201);
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
      const edit = await readJson(c, endpoints.adminUpdateProduct.body, formFields);
      return c.json(answer(await catalogue.update(c.get('session').user, itemid, edit)));
    })

    .put(endpoints.adminProductPicture.path, owner, async (c) => {
      const itemid = itemidParam(c.req.param('itemid'));
      if (!(await catalogue.find(itemid))) throw new HttpError('product/not-found');
      const user = c.get('session').user;
      return c.json(answer(await upload(c, (made) => catalogue.setPicture(user, itemid, made.thumb, made.large))));
    })

    .post(endpoints.adminAddProductPicture.path, owner, async (c) => {
      const itemid = itemidParam(c.req.param('itemid'));
      if (!(await catalogue.find(itemid))) throw new HttpError('product/not-found');
      const user = c.get('session').user;
      return c.json(answer(await upload(c, (made) => catalogue.addPicture(user, itemid, made.thumb, made.large))));
    })

    .put(endpoints.adminOrderProductPictures.path, owner, async (c) => {
      const itemid = itemidParam(c.req.param('itemid'));
      const { version, order } = await readJson(c, endpoints.adminOrderProductPictures.body, pictureFields);
      return c.json(answer(await catalogue.orderPictures(c.get('session').user, itemid, version, order)));
    })

    .get(endpoints.adminCategories.path, owner, async (c) => c.json({ categories: await categories.all() }))

    .post(endpoints.adminCreateCategory.path, owner, async (c) => {
      const input = await readJson(c, endpoints.adminCreateCategory.body, categoryFields);
      return c.json(categoryAnswer(await categories.create(input)), 201);
    })

    .put(endpoints.adminUpdateCategory.path, owner, async (c) => {
      const slug = slugParam(c.req.param('slug'));
      const edit = await readJson(c, endpoints.adminUpdateCategory.body, categoryFields);
      return c.json(categoryAnswer(await categories.update(c.get('session').user, slug, edit)));
    })

    .delete(endpoints.adminRemoveCategory.path, owner, async (c) => {
      const slug = slugParam(c.req.param('slug'));
      const { version, withProducts } = readQuery(c, endpoints.adminRemoveCategory.query);
      const result = await categories.remove(c.get('session').user, slug, version, withProducts);
      if (!result.ok) {
        if (result.reason === 'has-products') {
          const count = result.products === 1 ? '1 product' : `${result.products} products`;
          throw new HttpError(
            'category/has-products',
            `This category has ${count}. Confirm that they leave it (they stay in the shop), and it is removed.`,
          );
        }
        throw new HttpError(result.reason === 'changed' ? 'category/changed' : 'category/not-found');
      }
      return c.json({ categories: await categories.all() });
    })

    .put(endpoints.adminOrderCategories.path, owner, async (c) => {
      const { slugs } = await readJson(c, endpoints.adminOrderCategories.body);
      if (!(await categories.reorder(slugs)).ok) throw new HttpError('category/not-every-category');
      return c.json({ categories: await categories.all() });
    });
}
