import type { UnitOfWork } from '../db/database';

/** The longest slug made from a name (a suffix such as `-2` may follow). */
const slugMax = 60;

/**
 * The slug a name makes (docs/decisions/0036-finding-products.md): its letters and digits without their accents, in
 * lower case, the runs between them one `-`; 'product' for a name that has none.
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, slugMax)
    .replace(/^-+|-+$/g, '');
  return slug || 'product';
}

/** `base`, or the first of `base-2`, `base-3`... that `taken` says is free. */
export async function freeSlug(base: string, taken: (slug: string) => boolean | Promise<boolean>): Promise<string> {
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(slug))) return slug;
  }
}

/**
 * The slug the product's name makes: the first free one (a slug it had before is its own). `keepSlug` keeps it among
 * its slugs once the product has it, so that every address it ever had leads to it.
 */
export async function nameSlug(uow: UnitOfWork, itemid: string, name: string): Promise<string> {
  const base = slugOf(name);
  // Two products named alike at once take different slugs.
  await uow.lock('product-slug', base);
  return freeSlug(base, async (candidate) => {
    const row = await uow.trx
      .selectFrom('product_slug')
      .select('itemid')
      .where('slug', '=', candidate)
      .executeTakeFirst();
    return row !== undefined && row.itemid !== itemid;
  });
}

export async function keepSlug(uow: UnitOfWork, itemid: string): Promise<void> {
  await uow.trx
    .insertInto('product_slug')
    .columns(['slug', 'itemid'])
    .expression((eb) => eb.selectFrom('product').select(['slug', 'itemid']).where('itemid', '=', itemid))
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
}
