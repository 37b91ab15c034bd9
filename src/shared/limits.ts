/**
 * The shop's limits (docs/product.md §3, §5, §8), in a module of their own without zod, so that texts built
 * from them (src/shared/errors.ts) load without the schema library.
 */
export const limits = {
  emailMin: 6,
  emailMax: 254,
  passwordMin: 6,
  passwordMax: 16,
  cartMaxRows: 100,
  /** Orders that may be placed in an hour for one e-mail address, over every account that had it. */
  ordersPerHour: 20,
  /** Rows to a page of a list: the rider's orders, the back office's orders and e-mails. */
  pageSize: 50,
  /** The longest note an owner may add to a move (a tracking number, a reason). */
  noteMax: 500,
} as const;
