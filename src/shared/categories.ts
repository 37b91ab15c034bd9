/**
 * The owner's categories (docs/product.md §22): the rules for a category's form, the same in the back office and on
 * the server, and the shapes of its routes.
 */
import './zod-config';
import { z } from 'zod';
import { sizeGuideSchema } from './finding';
import { findingLimits } from './limits';
import { oneLine } from './products';

export const categoryMessages = {
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${findingLimits.categoryNameMax} characters.`,
  nameOneLine: 'Name must be on one line, without control characters.',
  nameTaken: 'Another category already has this name.',
  tooMany: `The shop has at most ${findingLimits.categoriesMax} categories.`,
} as const;

export const categoryNameSchema = oneLine(
  categoryMessages.nameRequired,
  findingLimits.categoryNameMax,
  categoryMessages.nameTooLong,
  categoryMessages.nameOneLine,
);

/** A new category: its name and, if the owner writes one, the size guide of its products. It goes last. */
export const newCategorySchema = z.strictObject({
  name: categoryNameSchema,
  sizeGuide: sizeGuideSchema.nullable().optional(),
});
export type NewCategory = z.infer<typeof newCategorySchema>;

/**
 * The owner's form of a category, with the version it was filled from: a stale one is `category/changed`. Its slug
 * stays what it was when it is renamed, so that the addresses riders keep still find it.
 */
export const categoryEditSchema = z.strictObject({
  name: categoryNameSchema,
  sizeGuide: sizeGuideSchema.nullable(),
  version: z.string({ error: 'version must be the one the form was filled from.' }).max(64),
});
export type CategoryEdit = z.infer<typeof categoryEditSchema>;

/** The categories' new order: every category's slug, each once. */
export const categoryOrderSchema = z.strictObject({
  slugs: z.array(z.string().max(findingLimits.slugMax)).min(1).max(findingLimits.categoriesMax),
});

/**
 * Removing a category: the version the page showed, and `withProducts=1` when the owner has confirmed that its
 * products leave it (without it, a category with products is not removed: `category/has-products`).
 */
export const categoryRemoveQuery = z.strictObject({
  version: z.string().max(64),
  withProducts: z
    .enum(['1'], { error: 'withProducts must be 1 or left out.' })
    .optional()
    .transform((given) => given === '1'),
});

export const adminCategorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  /** Its place among the categories, from 1. */
  position: z.number().int(),
  sizeGuide: sizeGuideSchema.nullable(),
  /** How many products are in it, shown or hidden. */
  products: z.number().int(),
  /** Changes with its name and size guide: the form sends back the one it was filled from. */
  version: z.string(),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;
