import { bankTransfer } from '../../shared/payment/bank-transfer';
import type { Db } from '../db/database';
import type { Outbox } from '../mail/outbox';
import { readOrder } from './order-mapping';
import { recipientOf } from './order-moves';
import { ordersTopic } from './order-topic';

export interface RemindersParts {
  db: Db;
  outbox: Pick<Outbox, 'enqueue'>;
  cardPaymentMs: number;
}

/**
 * The one reminder an unpaid bank-transfer order gets (docs/decisions/0049-unpaid-bank-transfers.md): its last day
 * to pay kept on the order and the e-mail written, in one unit of work.
 */
export function createReminders({ db, outbox, cardPaymentMs }: RemindersParts) {
  return {
    /**
     * Reminds the rider of the order `number` to pay by `payBy` (epoch ms), if it is a bank-transfer order still
     * placed and never reminded: true when this call reminded it. Of two calls at once, on one server or two, the
     * database lets one set `pay_by` (the other's conditional update finds it set, or waits for it and then does),
     * and only that one writes the e-mail.
     */
    remindToPay(number: number, payBy: number): Promise<boolean> {
      return db.run(async (uow) => {
        const marked = await uow.trx
          .updateTable('shop_order')
          .set({ pay_by: payBy })
          .where('number', '=', number)
          .where('payment_method', '=', bankTransfer.id)
          .where('status', '=', 'placed')
          .where('pay_by', 'is', null)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) return false;
        const placedBy = await uow.trx
          .selectFrom('shop_order')
          .select(['uid', 'email'])
          .where('number', '=', number)
          .executeTakeFirstOrThrow();
        const order = await readOrder(uow.trx, number, { forOwner: false, cardPaymentMs });
        if (!order?.reminder) throw new Error(`Order ${number} lost its reminder inside the unit that set it.`);
        await outbox.enqueue(uow, 'payment-reminder', await recipientOf(uow, placedBy), {
          order,
          payBy: order.reminder.payBy,
        });
        // The rider's and the owner's open pages of the order show its last day to pay.
        uow.publish(ordersTopic, { type: 'reminded', number, status: 'placed', uid: placedBy.uid });
        return true;
      });
    },
  };
}
