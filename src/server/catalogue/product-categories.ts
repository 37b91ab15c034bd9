import type { UnitOfWork } from '../db/database';
import { quoted } from './product-history';

// A product's categories, as the owner's form sets them.

/**
 * The categories of `slugs` (in the categories' order), and what the product's history says of putting it in them
 * (none when it is in them already); `unknown-category` for a slug no category has.
 */
export async function categoriesFor(
  uow: UnitOfWork,
  itemid: string,
  slugs: readonly string[],
): Promise<{ ok: true; slugs: string[]; what?: string } | { ok: false; reason: 'unknown-category'; category: string }> {
  const wanted = [...new Set(slugs)];
  const known =
    wanted.length === 0
      ? []
      : await uow.trx
          .selectFrom('category')
          .select(['slug', 'name'])
          .where('slug', 'in', wanted)
          .orderBy('position')
          .execute();
  const unknown = wanted.find((slug) => !known.some((c) => c.slug === slug));
  if (unknown !== undefined) return { ok: false, reason: 'unknown-category', category: unknown };
  const current = await uow.trx
    .selectFrom('product_category')
    .select('category')
    .where('itemid', '=', itemid)
    .execute();
  const chosen = known.map((c) => c.slug);
  if (current.length === chosen.length && current.every((c) => chosen.includes(c.category))) {
    return { ok: true, slugs: chosen };
  }
  const names = known.map((c) => quoted(c.name)).join(', ');
  return { ok: true, slugs: chosen, what: known.length > 0 ? `Categories: ${names}` : 'In no category' };
}

/** Puts the product in exactly the categories of `slugs` (known ones). */
export async function placeIn(uow: UnitOfWork, itemid: string, slugs: readonly string[]): Promise<void> {
  await uow.trx.deleteFrom('product_category').where('itemid', '=', itemid).execute();
  if (slugs.length > 0) {
    await uow.trx
      .insertInto('product_category')
      .values(slugs.map((category) => ({ category, itemid })))
      .execute();
  }
}
