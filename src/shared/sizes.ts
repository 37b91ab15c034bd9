/** Sizes as the pages, e-mails and the spreadsheet show them (docs/product.md §12); no zod, for the first paint. */

/** The home page says 'Only N left' for a size with this many or fewer on the shelf. */
export const fewLeft = 3;

/** A cart row's or order line's item: its name and, when it has one, its size ("Anky Bridle, size Cob"). */
export function itemWithSize(name: string, size: string | null): string {
  return size === null ? name : `${name}, size ${size}`;
}
