/** Who a user is to the shop (docs/product.md §11): every user is a rider; some are also owners. */
export const roles = ['rider', 'owner'] as const;
export type Role = (typeof roles)[number];
