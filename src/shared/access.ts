import type { OpenTo } from './settings';

/**
 * Who may reach a page or an API route (docs/product.md §23), the one rule for both sides: `anyone`, even a visitor of
 * a members-only shop (signing up, logging in, the shop's footer); `shop`, what a shop open to everyone shows its
 * visitors too (home, a product, the cart); `rider`, a signed-in account; `owner`, the shop's owners.
 */
export type Access = 'anyone' | 'shop' | 'rider' | 'owner';

/** Who asks: a visitor (no session), a rider, or an owner. */
export type Who = 'visitor' | 'rider' | 'owner';

export function mayReach(access: Access, who: Who, openTo: OpenTo): boolean {
  switch (access) {
    case 'anyone':
      return true;
    case 'shop':
      return who !== 'visitor' || openTo === 'everyone';
    case 'rider':
      return who !== 'visitor';
    case 'owner':
      return who === 'owner';
  }
}
