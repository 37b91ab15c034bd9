/**
 * The owner's catalogue (docs/product.md §13): the rules for a product and its sizes, the same in the owner's form
 * and on the server, and the shapes of the back office's product routes.
 */
import './zod-config';
import { z } from 'zod';
import { productPictureSchema, sizeGuideSchema } from './finding';
import { findingLimits, productLimits } from './limits';
import { noControlCharacters, textWithLineBreaks } from './text';

export const productMessages = {
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${productLimits.nameMax} characters.`,
  nameOneLine: 'Name must be on one line, without control characters.',
  detailsTooLong: `Details must be at most ${productLimits.detailsMax} characters.`,
  detailsText: 'Details must be text without control characters other than line breaks.',
  priceFormat: 'Price must be an amount like 303.00.',
  // In the shop's currency, whichever it is: an amount of it as the form takes it.
  priceTooLow: 'Price must be more than 0.00.',
  priceTooHigh: `Price must be at most ${(productLimits.priceMaxCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}.`,
  stockFormat: 'Stock must be a whole number.',
  stockTooLow: 'Stock cannot be below 0.',
  stockTooHigh: `Stock must be at most ${productLimits.stockMax.toLocaleString('en-US')}.`,
  weightFormat: 'Weight must be a whole number of grams.',
  weightTooLow: 'Weight cannot be below 0.',
  weightTooHigh: `Weight must be at most ${productLimits.weightMaxGrams.toLocaleString('en-US')} g.`,
  sizeRequired: 'Size is required.',
  sizeTooLong: `Size must be at most ${productLimits.sizeMax} characters.`,
  sizeOneLine: 'Size must be on one line, without control characters.',
  sizesRequired: 'A product needs at least one size.',
  sizesTooMany: `A product has at most ${productLimits.sizesMax} sizes.`,
  sizeTwice: 'Two sizes of one product cannot have the same name.',
} as const;

/** Something to read: not only spaces and invisible marks (a zero-width space, a joiner). */
const visible = /[^\p{Z}\p{Cf}\s]/u;
/** Half of a UTF-16 pair on its own: no character at all (a database would store a replacement mark instead). */
const loneSurrogate = /\p{Cs}/u;

/** Text on one line: a name, a size, a category's name. */
export function oneLine(required: string, max: number, tooLong: string, oneLine: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .regex(noControlCharacters, oneLine)
    .refine((text) => visible.test(text), required)
    .refine((text) => !loneSurrogate.test(text), oneLine);
}

export const productNameSchema = oneLine(
  productMessages.nameRequired,
  productLimits.nameMax,
  productMessages.nameTooLong,
  productMessages.nameOneLine,
);

/** Line breaks are welcome in details; other control characters are not. */
export const productDetailsSchema = z
  .string({ error: productMessages.detailsText })
  .trim()
  .max(productLimits.detailsMax, productMessages.detailsTooLong)
  .regex(textWithLineBreaks, productMessages.detailsText)
  .refine((text) => !loneSurrogate.test(text), productMessages.detailsText);

export const priceCentsSchema = z
  .number({ error: productMessages.priceFormat })
  .int(productMessages.priceFormat)
  .min(1, productMessages.priceTooLow)
  .max(productLimits.priceMaxCents, productMessages.priceTooHigh);

export const stockCountSchema = z
  .number({ error: productMessages.stockFormat })
  .int(productMessages.stockFormat)
  .min(0, productMessages.stockTooLow)
  .max(productLimits.stockMax, productMessages.stockTooHigh);

export const sizeNameSchema = oneLine(
  productMessages.sizeRequired,
  productLimits.sizeMax,
  productMessages.sizeTooLong,
  productMessages.sizeOneLine,
);

/**
 * One size of the owner's form: its name and stock. For a size the product has: `was`, the name it had, when the
 * owner renamed it (its rows in carts follow the new name); `stockShown`, the stock the form showed, so that a stock
 * the owner did not change keeps what orders took meanwhile. A size of the product left out of the list is removed.
 */
export const sizeEditSchema = z.strictObject({
  size: sizeNameSchema,
  stock: stockCountSchema,
  was: z.string().max(productLimits.sizeMax).regex(noControlCharacters, productMessages.sizeOneLine).optional(),
  stockShown: z.number().int().min(0).optional(),
});
export type SizeEdit = z.infer<typeof sizeEditSchema>;

const sizesSchema = z
  .array(sizeEditSchema, { error: productMessages.sizesRequired })
  .min(1, productMessages.sizesRequired)
  .max(productLimits.sizesMax, productMessages.sizesTooMany)
  .superRefine((sizes, ctx) => {
    const seen = new Set<string>();
    sizes.forEach(({ size }, index) => {
      const key = size.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: productMessages.sizeTwice, path: [index, 'size'] });
      seen.add(key);
    });
  });

/** A product's weight as shipped, in grams. */
export const weightGramsSchema = z
  .number({ error: productMessages.weightFormat })
  .int(productMessages.weightFormat)
  .min(0, productMessages.weightTooLow)
  .max(productLimits.weightMaxGrams, productMessages.weightTooHigh);

/**
 * A new product: everything but its picture (uploaded once it exists) and its place (last). Its weight may be left
 * out: a new product then weighs nothing, an edited one keeps its weight.
 */
export const newProductSchema = z.strictObject({
  name: productNameSchema,
  details: productDetailsSchema,
  priceCents: priceCentsSchema,
  weightGrams: weightGramsSchema.optional(),
  shown: z.boolean({ error: 'shown must be true or false.' }),
  sizes: sizesSchema,
  /**
   * The slugs of its categories (docs/product.md §22); left out, an edit keeps them and a new product has none. A slug
   * no category has is `product/invalid` on `categories`.
   */
  categories: z
    .array(z.string().max(findingLimits.slugMax), { error: 'categories must be a list of slugs.' })
    .max(findingLimits.categoriesMax)
    .optional(),
  /** Its own size guide, or null for its first category's; left out, an edit keeps it and a new product has none. */
  sizeGuide: sizeGuideSchema.nullable().optional(),
});
export type NewProduct = z.infer<typeof newProductSchema>;

/** The owner's whole form, with the version of the product it was filled from: a stale one is `product/changed`. */
export const productEditSchema = newProductSchema.extend({
  version: z.number({ error: 'version must be a whole number.' }).int().min(1),
});
export type ProductEdit = z.infer<typeof productEditSchema>;

/** The home page's order: every product's item number, each once. */
export const productOrderSchema = z.strictObject({
  itemids: z.array(z.string().max(16)).min(1).max(1000),
});

export const adminProductSchema = z.object({
  itemid: z.string(),
  name: z.string(),
  details: z.string(),
  priceCents: z.number().int(),
  weightGrams: z.number().int(),
  pic: z.string(),
  largepic: z.string(),
  shown: z.boolean(),
  /** Its place on the home page, from 1. */
  position: z.number().int(),
  /** Goes up with every change: the form sends back the one it was filled from. */
  version: z.number().int(),
  sizes: z.array(z.object({ size: z.string(), stock: z.number().int() })),
  /** The slugs of its categories, in the categories' order. */
  categories: z.array(z.string()),
  /** Its own size guide; null: its first category's. */
  sizeGuide: sizeGuideSchema.nullable(),
  /** Its pictures in order, at most `findingLimits.picturesMax`: the first is `pic` and `largepic`. */
  pictures: z.array(productPictureSchema),
});
export type AdminProduct = z.infer<typeof adminProductSchema>;

/** One change to a product: what, when (ISO 8601) and by whom (the owner's e-mail address). */
export const productChangeSchema = z.object({ at: z.string(), by: z.string(), what: z.string() });
export type ProductChange = z.infer<typeof productChangeSchema>;

/**
 * A product's pictures as the owner arranges them: the places (from 1) of the pictures it keeps, in their new order;
 * a picture left out is removed. `version` as on the form.
 */
export const pictureOrderSchema = z.strictObject({
  version: z.number({ error: 'version must be a whole number.' }).int().min(1),
  order: z
    .array(z.number().int().min(1).max(findingLimits.picturesMax), { error: 'order must be a list of places.' })
    .max(findingLimits.picturesMax)
    .refine((order) => new Set(order).size === order.length, 'Each picture may come once in the order.'),
});
export type PictureOrder = z.infer<typeof pictureOrderSchema>;
