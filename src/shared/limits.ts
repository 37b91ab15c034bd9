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
  /** Visitors' carts one client address may make in an hour (docs/product.md §23): a household or a yard's visitors. */
  visitorCartsPerHour: 30,
  /** Orders that may be placed in an hour for one e-mail address, over every account that had it. */
  ordersPerHour: 20,
  /** Rows to a page of a list: the rider's orders, the back office's orders and e-mails. */
  pageSize: 50,
  /** Orders a list counts before it says 'more than' (docs/decisions/0043-the-order-list-by-key.md). */
  orderCountMax: 10_000,
  /** The longest note an owner may add to a move (a tracking number, a reason). */
  noteMax: 500,
  /** The longest name a rider may give a passkey ('Phone', 'Work laptop'). */
  passkeyNameMax: 50,
  /** Back-in-stock alerts a rider may have open at once (docs/product.md §27). */
  stockAlertsMax: 50,
} as const;

/**
 * How finely a session's last use is recorded, in minutes (docs/product.md §4): a server writes it down when it
 * finds the session's record older than this, so the account page says 'In the last 5 minutes' within it.
 */
export const lastUseStepMinutes = 5;

/** A product of the owner's catalogue (docs/product.md §13). */
export const productLimits = {
  nameMax: 80,
  detailsMax: 1000,
  /** $100,000.00. */
  priceMaxCents: 10_000_000,
  stockMax: 100_000,
  /** 100 kg, in grams: shipping by weight (docs/product.md §18) reads it. */
  weightMaxGrams: 100_000,
  sizeMax: 32,
  sizesMax: 20,
  /** The largest picture an owner may upload (JPEG, PNG or WebP), in bytes. */
  pictureMaxBytes: 5 * 1024 * 1024,
} as const;

/** Finding products (docs/product.md §22). */
export const findingLimits = {
  /** Products to a page of the list. */
  pageSize: 24,
  queryMax: 100,
  slugMax: 80,
  sizeMax: productLimits.sizeMax,
  categoryNameMax: 40,
  categoriesMax: 100,
  picturesMax: 8,
  guideCellMax: 40,
  guideColumnsMax: 6,
  guideRowsMax: 30,
} as const;
