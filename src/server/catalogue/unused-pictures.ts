import type { Db } from '../db/database';
import { pictureUrl } from './product-pictures';

/**
 * How long an uploaded picture is kept after its last upload, used or not. A picture is used while a product (shown or
 * hidden) has it among its pictures: nothing else names one (orders, carts and e-mails carry no
 * picture, a product's history says only 'New picture'), so a picture replaced more than this after its upload goes
 * at the next round (docs/decisions/0024-owners-catalogue.md).
 */
export const unusedPictureGraceMs = 24 * 60 * 60_000;

/** Ids to a statement: well within both databases' limits on bound values. */
const batch = 500;

/** The uploaded pictures that no product uses and that were last uploaded more than the grace period before `now`. */
export async function unusedPictures(db: Db, now: number): Promise<string[]> {
  const old = await db.kysely
    .selectFrom('picture')
    .select('id')
    .where('created_at', '<', now - unusedPictureGraceMs)
    .execute();
  if (old.length === 0) return [];
  // A product's first picture is also its card's (product.pic and largepic): its pictures name every one it uses.
  const pictures = await db.kysely.selectFrom('product_picture').select(['pic', 'largepic']).execute();
  const used = new Set(pictures.flatMap((picture) => [picture.pic, picture.largepic]));
  return old.map((row) => row.id).filter((id) => !used.has(pictureUrl(id)));
}

/**
 * Deletes the pictures of `ids` (found unused a moment ago) that have not been uploaded again since; the number
 * deleted. An upload gives its picture a new `created_at` in the transaction that puts it on a product (`setPicture`),
 * and each delete checks `created_at` again in its own statement (on PostgreSQL, after waiting for an upload's row
 * lock), so a picture that a product has just been given stays, on whichever server it was uploaded.
 */
export async function deletePictures(db: Db, ids: readonly string[], now: number): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < ids.length; start += batch) {
    const result = await db.kysely
      .deleteFrom('picture')
      .where('id', 'in', ids.slice(start, start + batch))
      .where('created_at', '<', now - unusedPictureGraceMs)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** Deletes the unused pictures past their grace period; safe on every server at once. The number deleted. */
export async function deleteUnusedPictures(db: Db, now: number): Promise<number> {
  return deletePictures(db, await unusedPictures(db, now), now);
}
