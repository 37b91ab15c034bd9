import { createHash } from 'node:crypto';
import type { ProductPicture } from '../../shared/finding';
import { findingLimits } from '../../shared/limits';
import type { AdminProduct } from '../../shared/products';
import type { Owner } from '../auth/owner';
import type { Db, UnitOfWork } from '../db/database';
import { catalogueTopic } from '../stock/catalogue-changes';
import type { PictureFile } from './pictures';
import { type ChangeResult, type Product, readProduct } from './product';
import { recordChange } from './product-history';

// A product's pictures (docs/product.md §13, §22): kept by the hash of their bytes, in the owner's order, the first
// the card's.

/** What arranging a product's pictures may answer besides: a place that is none of its pictures'. */
export type PicturesResult = ChangeResult | { ok: false; reason: 'unknown-picture' | 'too-many' };

/** What a new product shows until its picture is uploaded. */
export const noPicture = { pic: '/pictures/no-picture-thumb.svg', largepic: '/pictures/no-picture.svg' } as const;

/** Where an uploaded picture is served: its URL changes with its content (src/server/catalogue/routes.ts). */
export const pictureUrl = (id: string) => `/media/${id}.webp`;

/** Keeps an uploaded picture's two files by their hash: the URLs of the thumbnail and the large picture. */
async function storePicture(uow: UnitOfWork, thumb: PictureFile, large: PictureFile): Promise<ProductPicture> {
  const urls: string[] = [];
  for (const file of [thumb, large]) {
    const id = createHash('sha256').update(file.bytes).digest('hex');
    // The same bytes uploaded again are new again: the cleaning of unused pictures, on any server, waits for
    // this row and then leaves it (src/server/catalogue/unused-pictures.ts).
    await uow.trx
      .insertInto('picture')
      .values({ id, content_type: file.contentType, bytes: file.bytes, created_at: Date.now() })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ created_at: eb.ref('excluded.created_at') })))
      .execute();
    urls.push(pictureUrl(id));
  }
  return { pic: urls[0] as string, largepic: urls[1] as string };
}

/**
 * The owner's changes to a product's pictures, each one unit of work; `productNow` is the product as a unit has
 * just left it (the catalogue's store's).
 */
export function createProductPictures(db: Db, productNow: (uow: UnitOfWork, itemid: string) => Promise<AdminProduct>) {
  /**
   * One change to a product's pictures, in a unit of work: `change` rearranges the list it is given (in order) and
   * says what the history says of it, or why it is refused. The first picture is the card's too.
   */
  function changePictures(
    owner: Owner,
    itemid: string,
    change: (
      uow: UnitOfWork,
      pictures: ProductPicture[],
      before: Product,
    ) => Promise<{ what: string[] } | { refuse: 'changed' | 'too-many' | 'unknown-picture' }>,
  ): Promise<PicturesResult> {
    return db.run(async (uow) => {
      await uow.lock('product', itemid);
      const before = await readProduct(uow, itemid);
      if (!before) return { ok: false, reason: 'not-found' } as const;
      const pictures = await uow.trx
        .selectFrom('product_picture')
        .select(['pic', 'largepic'])
        .where('itemid', '=', itemid)
        .orderBy('position')
        .execute();
      const outcome = await change(uow, pictures, before);
      if ('refuse' in outcome) return { ok: false, reason: outcome.refuse } as const;
      if (outcome.what.length === 0) return { ok: true, product: await productNow(uow, itemid) } as const;
      const first = pictures[0] ?? noPicture;
      await uow.trx.deleteFrom('product_picture').where('itemid', '=', itemid).execute();
      await uow.trx
        .insertInto('product_picture')
        .values(pictures.map((p, index) => ({ itemid, position: index + 1, pic: p.pic, largepic: p.largepic })))
        .execute();
      await uow.trx
        .updateTable('product')
        .set({ pic: first.pic, largepic: first.largepic, version: before.version + 1, updated_at: Date.now() })
        .where('itemid', '=', itemid)
        .execute();
      await recordChange(uow, owner, itemid, outcome.what);
      uow.publish(catalogueTopic, { type: 'products' });
      return { ok: true, product: await productNow(uow, itemid) } as const;
    });
  }

  return {
    /**
     * Gives the product the new picture in place of its first (the card's): both files kept by their hash, the
     * product's URLs changed with them.
     */
    setPicture(owner: Owner, itemid: string, thumb: PictureFile, large: PictureFile): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (uow, pictures) => {
        pictures[0] = await storePicture(uow, thumb, large);
        return { what: ['New picture'] };
      });
    },

    /**
     * Adds the picture after the product's others (in place of the stand-in of a product that has none); a product
     * with `findingLimits.picturesMax` already is `too-many`.
     */
    addPicture(owner: Owner, itemid: string, thumb: PictureFile, large: PictureFile): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (uow, pictures) => {
        const own = pictures.filter((p) => p.pic !== noPicture.pic);
        if (own.length >= findingLimits.picturesMax) return { refuse: 'too-many' };
        pictures.splice(0, pictures.length, ...own, await storePicture(uow, thumb, large));
        return { what: [`Picture ${pictures.length} added`] };
      });
    },

    /**
     * Keeps the pictures at the places of `order` (from 1), in that order; the others are removed (a product left
     * with none shows the stand-in). Refused when the product is no longer the version the page showed.
     */
    orderPictures(owner: Owner, itemid: string, version: number, order: readonly number[]): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (_, pictures, before) => {
        if (before.version !== version) return { refuse: 'changed' };
        if (order.some((place) => place > pictures.length)) return { refuse: 'unknown-picture' };
        const what = pictures.flatMap((_, index) =>
          order.includes(index + 1) ? [] : [`Picture ${index + 1} removed`],
        );
        const kept = order.map((place) => pictures[place - 1] as ProductPicture);
        if (order.some((place, index) => index > 0 && place < (order[index - 1] as number))) {
          what.push('Pictures reordered');
        }
        pictures.splice(0, pictures.length, ...(kept.length > 0 ? kept : [{ ...noPicture }]));
        return { what };
      });
    },

    /** An uploaded picture's bytes and type, by its id. */
    async picture(id: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
      const row = await db.kysely
        .selectFrom('picture')
        .select(['content_type', 'bytes'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { contentType: row.content_type, bytes: Buffer.from(row.bytes) };
    },
  };
}
