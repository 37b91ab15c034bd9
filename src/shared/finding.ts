/**
 * Finding products (docs/product.md §22): the list's query as the address and the API carry it, its answer, and the
 * size guides, the same rules on both sides.
 */
import './zod-config';
import { z } from 'zod';
import { findingLimits } from './limits';
import { pageFields, pageNumber } from './paging';
import { noControlCharacters } from './text';

/** A product as the home page shows it: the catalogue's facts, and its sizes in order with their stock. */
export const catalogueProductSchema = z.object({
  itemid: z.string(),
  /** Its page: `/products/<slug>`. */
  slug: z.string(),
  name: z.string(),
  /** Integer cents. */
  priceCents: z.number().int(),
  details: z.string(),
  pic: z.string(),
  largepic: z.string(),
  sizes: z.array(z.object({ size: z.string(), stock: z.number().int() })),
});
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;

/**
 * The list's choices: the words searched for, a category's slug, a size's name, in stock only ('1'), and the page.
 * Empty ones are as absent, so that a form's empty field leaves nothing in the address.
 */
const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} must be at most ${max} characters.`)
    .regex(noControlCharacters, `${what} must be on one line, without control characters.`)
    .optional()
    .transform((text) => text || undefined);

export const productQuery = z.strictObject({
  q: optionalText(findingLimits.queryMax, 'q'),
  category: optionalText(findingLimits.slugMax, 'category'),
  size: optionalText(findingLimits.sizeMax, 'size'),
  instock: z
    .enum(['1'], { error: 'instock must be 1 or left out.' })
    .optional()
    .transform((given) => given === '1'),
  page: pageNumber,
});
export type ProductQuery = z.output<typeof productQuery>;

export const categorySchema = z.object({ slug: z.string(), name: z.string() });
export type Category = z.infer<typeof categorySchema>;

/** A page of the list, with the choices the filters offer: the categories in the owner's order and the sizes. */
export const productPageSchema = z.object({
  products: z.array(catalogueProductSchema),
  ...pageFields,
  categories: z.array(categorySchema),
  sizes: z.array(z.string()),
});
export type ProductPage = z.infer<typeof productPageSchema>;

export const sizeGuideMessages = {
  cell: `Each cell of the size guide must be one line of at most ${findingLimits.guideCellMax} characters.`,
  columns: `A size guide has 2 to ${findingLimits.guideColumnsMax} columns, the same in every row.`,
  rows: `A size guide has 1 to ${findingLimits.guideRowsMax} rows below its headings.`,
} as const;

const cell = z
  .string({ error: sizeGuideMessages.cell })
  .trim()
  .max(findingLimits.guideCellMax, sizeGuideMessages.cell)
  .regex(noControlCharacters, sizeGuideMessages.cell);

/** A size guide: a small table of text the owner types (never HTML), its headings and its rows. */
export const sizeGuideSchema = z
  .strictObject({
    columns: z
      .array(cell, { error: sizeGuideMessages.columns })
      .min(2, sizeGuideMessages.columns)
      .max(findingLimits.guideColumnsMax, sizeGuideMessages.columns),
    rows: z
      .array(
        // As many cells as the headings (the refine below), so at most as many as they may be: a bound of its own
        // for the largest body a route takes (src/server/http/body-size.ts).
        z
          .array(cell, { error: sizeGuideMessages.columns })
          .max(findingLimits.guideColumnsMax, sizeGuideMessages.columns),
        { error: sizeGuideMessages.rows },
      )
      .min(1, sizeGuideMessages.rows)
      .max(findingLimits.guideRowsMax, sizeGuideMessages.rows),
  })
  .refine((guide) => guide.rows.every((row) => row.length === guide.columns.length), {
    message: sizeGuideMessages.columns,
    path: ['rows'],
  });
export type SizeGuide = z.infer<typeof sizeGuideSchema>;

/** One of a product's pictures: its thumbnail and its large picture. */
export const productPictureSchema = z.object({ pic: z.string(), largepic: z.string() });
export type ProductPicture = z.infer<typeof productPictureSchema>;

/**
 * A product's page: what its card shows, its pictures in the owner's order (the first is the card's), and its size
 * guide (its own, or else its first category's; null when neither has one). `slug` is its current one, which a page
 * asked for by an older slug goes to.
 */
export const productDetailsSchema = catalogueProductSchema.extend({
  pictures: z.array(productPictureSchema),
  sizeGuide: z.lazy(() => sizeGuideSchema).nullable(),
});
export type ProductDetails = z.infer<typeof productDetailsSchema>;
