import type { OrderStatus } from '../../shared/orders';
import { topic } from '../db/change-feed';

/**
 * Every order change, on every server: the owners' live list and the rider's order page follow it. `reminded`: an
 * unpaid bank-transfer order was given its last day to pay (src/server/orders/order-reminders.ts); `return`: one of its
 * returns was asked or moved (src/server/returns/).
 */
export type OrderChange = {
  type: 'placed' | 'moved' | 'reminded' | 'return';
  number: number;
  status: OrderStatus;
  uid: string | null;
};
export const ordersTopic = topic<OrderChange>('orders');
