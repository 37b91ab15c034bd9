import type { UnitOfWork } from '../db/database';
import { cartTopic } from './cart-store';

/**
 * Tells every open cart holding the product to read itself again (a new price, a size renamed, hidden): the
 * catalogue's `ProductChanged`, given to it where the shop is put together (src/server/server.ts).
 */
export async function nudgeCarts(uow: UnitOfWork, itemid: string): Promise<void> {
  const riders = await uow.trx.selectFrom('cart_item').select('uid').distinct().where('itemid', '=', itemid).execute();
  for (const { uid } of riders) uow.publish(cartTopic(uid), { type: 'changed' });
}
