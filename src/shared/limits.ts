/**
 * The shop's limits (docs/product.md §3, §5), in a module of their own without zod, so that texts built from
 * them (src/shared/errors.ts) load without the schema library.
 */
export const limits = {
  emailMin: 6,
  emailMax: 254,
  passwordMin: 6,
  passwordMax: 16,
  cartMaxRows: 100,
} as const;
