import type { UnitOfWork } from '../db/database';
import { cartTopic } from './cart-store';

/**
 * Tells every open cart holding the product to read itself again (a new price, a size renamed, hidden): the
 * catalogue's `ProductChanged`, given to it where the shop is put together (src/server/server.ts).
 */
export async function nudgeCarts(uow: UnitOfWork, itemid: string): Promise<void> {
  const carts = await uow.trx
    .selectFrom('cart_item')
    .select(['uid', 'visitor_cart_id'])
    .distinct()
    .where('itemid', '=', itemid)
    .execute();
  for (const { uid, visitor_cart_id: visitor } of carts) {
    const owner = uid !== null ? { uid } : visitor !== null ? { visitor } : undefined;
    if (owner) uow.publish(cartTopic(owner), { type: 'changed' });
  }
}
