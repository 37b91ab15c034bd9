import { createHash } from 'node:crypto';
import type { AdminCategory, CategoryEdit, NewCategory } from '../../shared/categories';
import type { SizeGuide } from '../../shared/finding';
import { findingLimits } from '../../shared/limits';
import type { Owner } from '../auth/owner';
import type { Db, UnitOfWork } from '../db/database';
import type { CategoryTable } from '../db/schema';
import { catalogueTopic } from '../stock/catalogue-changes';
import { guideText, recordChange } from './product-history';
import { indexProduct } from './search-index';
import { freeSlug, slugOf } from './slugs';

export type CategoryResult =
  | { ok: true; category: AdminCategory }
  /** `changed`: the category is no longer the version the owner's form was filled from. */
  | { ok: false; reason: 'not-found' | 'changed' | 'name-taken' | 'too-many' };

export type RemoveResult =
  | { ok: true }
  | { ok: false; reason: 'not-found' | 'changed' }
  /** It has products and the owner has not confirmed that they leave it. */
  | { ok: false; reason: 'has-products'; products: number };

export type CategoryStore = ReturnType<typeof createCategoryStore>;

/** A category's version: a digest of its name and size guide, which the owner's form sends back (no column of its own). */
function versionOf(row: Pick<CategoryTable, 'name' | 'size_guide'>): string {
  return createHash('sha256')
    .update(JSON.stringify([row.name, row.size_guide]))
    .digest('base64url')
    .slice(0, 16);
}

const quoted = (text: string) => `“${text}”`;

/** Names alike whatever their case (and spaces around them, which the form's rules trim). */
const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

/**
 * The owner's categories (docs/product.md §22, docs/decisions/0036-finding-products.md): added last, renamed (the slug
 * stays), reordered and removed, one change at a time on every server. A rename or removal reindexes the category's
 * products and goes in each one's history, in the same unit of work; every change reaches open lists by the
 * catalogue topic.
 */
export function createCategoryStore(db: Db) {
  async function rows(executor: Pick<UnitOfWork['trx'], 'selectFrom'>): Promise<AdminCategory[]> {
    const found = await executor
      .selectFrom('category as c')
      .leftJoin('product_category as pc', 'pc.category', 'c.slug')
      .select(['c.slug', 'c.name', 'c.position', 'c.size_guide', (eb) => eb.fn.count<number>('pc.itemid').as('n')])
      .groupBy(['c.slug', 'c.name', 'c.position', 'c.size_guide'])
      .orderBy('c.position')
      .orderBy('c.slug')
      .execute();
    return found.map((row) => ({
      slug: row.slug,
      name: row.name,
      position: Number(row.position),
      sizeGuide: row.size_guide === null ? null : (JSON.parse(row.size_guide) as SizeGuide),
      products: Number(row.n),
      version: versionOf(row),
    }));
  }

  async function one(uow: UnitOfWork, slug: string): Promise<AdminCategory> {
    return (await rows(uow.trx)).find((c) => c.slug === slug) as AdminCategory;
  }

  /** The category's products, each locked as a product change locks it, so that their index is written in turn. */
  async function productsOf(uow: UnitOfWork, slug: string): Promise<string[]> {
    const found = await uow.trx
      .selectFrom('product_category')
      .select('itemid')
      .where('category', '=', slug)
      .orderBy('itemid')
      .execute();
    for (const { itemid } of found) await uow.lock('product', itemid);
    return found.map((r) => r.itemid);
  }

  async function nameTaken(uow: UnitOfWork, name: string, except?: string): Promise<boolean> {
    const names = await uow.trx.selectFrom('category').select(['slug', 'name']).execute();
    return names.some((c) => c.slug !== except && sameName(c.name, name));
  }

  /** Every change to the categories: one at a time, and before any product's lock (as a product's form takes them). */
  function change<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    return db.run(async (uow) => {
      await uow.lock('category', 'all');
      return work(uow);
    });
  }

  return {
    /** Every category in the owner's order, with how many products each has. */
    all(): Promise<AdminCategory[]> {
      return rows(db.kysely);
    },

    /** Adds a category after the others, its slug made from its name. */
    create(input: NewCategory): Promise<CategoryResult> {
      return change(async (uow) => {
        const existing = await uow.trx.selectFrom('category').select(['slug', 'position']).execute();
        if (existing.length >= findingLimits.categoriesMax) return { ok: false, reason: 'too-many' } as const;
        if (await nameTaken(uow, input.name)) return { ok: false, reason: 'name-taken' } as const;
        const slug = await freeSlug(slugOf(input.name), (s) => existing.some((c) => c.slug === s));
        await uow.trx
          .insertInto('category')
          .values({
            slug,
            name: input.name,
            position: Math.max(0, ...existing.map((c) => Number(c.position))) + 1,
            size_guide: guideText(input.sizeGuide ?? null),
          })
          .execute();
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, category: await one(uow, slug) } as const;
      });
    },

    /** Renames the category and sets its size guide, unless it changed since the form was filled (`version`). */
    update(owner: Owner, slug: string, edit: CategoryEdit): Promise<CategoryResult> {
      return change(async (uow) => {
        const before = await uow.trx.selectFrom('category').selectAll().where('slug', '=', slug).executeTakeFirst();
        if (!before) return { ok: false, reason: 'not-found' } as const;
        if (versionOf(before) !== edit.version) return { ok: false, reason: 'changed' } as const;
        if (await nameTaken(uow, edit.name, slug)) return { ok: false, reason: 'name-taken' } as const;
        const guide = guideText(edit.sizeGuide);
        if (edit.name === before.name && guide === before.size_guide) {
          return { ok: true, category: await one(uow, slug) } as const;
        }
        await uow.trx
          .updateTable('category')
          .set({ name: edit.name, size_guide: guide })
          .where('slug', '=', slug)
          .execute();
        if (edit.name !== before.name) {
          // Its products are found by its new name, and no longer by its old one.
          const what = [`Category ${quoted(before.name)} renamed ${quoted(edit.name)}`];
          for (const itemid of await productsOf(uow, slug)) {
            await indexProduct(uow.trx, db.dialect, itemid);
            await recordChange(uow, owner, itemid, what);
          }
        }
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, category: await one(uow, slug) } as const;
      });
    },

    /** Puts the categories in the owner's order: every category's slug, each once. */
    reorder(slugs: readonly string[]): Promise<{ ok: boolean }> {
      return change(async (uow) => {
        const existing = await uow.trx.selectFrom('category').select(['slug', 'position']).execute();
        const every = new Set(existing.map((c) => c.slug));
        if (new Set(slugs).size !== slugs.length || slugs.length !== every.size || slugs.some((s) => !every.has(s))) {
          return { ok: false };
        }
        for (const [index, slug] of slugs.entries()) {
          if (Number(existing.find((c) => c.slug === slug)?.position) === index + 1) continue;
          await uow.trx
            .updateTable('category')
            .set({ position: index + 1 })
            .where('slug', '=', slug)
            .execute();
        }
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true };
      });
    },

    /**
     * Removes the category. One with products is removed only when the owner has confirmed it (`withProducts`): they
     * stay in the shop, in their other categories, each a version further (a form filled before knows it).
     */
    remove(owner: Owner, slug: string, version: string, withProducts: boolean): Promise<RemoveResult> {
      return change(async (uow) => {
        const before = await uow.trx.selectFrom('category').selectAll().where('slug', '=', slug).executeTakeFirst();
        if (!before) return { ok: false, reason: 'not-found' } as const;
        if (versionOf(before) !== version) return { ok: false, reason: 'changed' } as const;
        const itemids = await productsOf(uow, slug);
        if (itemids.length > 0 && !withProducts) {
          return { ok: false, reason: 'has-products', products: itemids.length } as const;
        }
        await uow.trx.deleteFrom('product_category').where('category', '=', slug).execute();
        await uow.trx.deleteFrom('category').where('slug', '=', slug).execute();
        await uow.trx
          .updateTable('category')
          .set((eb) => ({ position: eb('position', '-', 1) }))
          .where('position', '>', before.position)
          .execute();
        for (const itemid of itemids) {
          await uow.trx
            .updateTable('product')
            .set((eb) => ({ version: eb('version', '+', 1), updated_at: Date.now() }))
            .where('itemid', '=', itemid)
            .execute();
          await indexProduct(uow.trx, db.dialect, itemid);
          await recordChange(uow, owner, itemid, [`Category ${quoted(before.name)} removed: no longer in it`]);
        }
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true } as const;
      });
    },
  };
}
