import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/**
 * The settings' sections this migration adds, for a new shop and an upgraded one alike (docs/decisions/0064-returns.md):
 * returns within 30 days of shipping, sent to the shop's own address (null), and sizes at or below 2 counted as low
 * in the owner's reports. Part of this migration: never edit it.
 */
export const firstReturns: { days: number; address: null } = { days: 30, address: null };
export const firstReports: { lowStock: number } = { lowStock: 2 };

/** Orders read at a time, when the refunds of cancelled paid orders are written. */
const page = 500;

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    const money = dialect === 'postgres' ? 'bigint' : 'integer';
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (row) {
      const document = { ...JSON.parse(row.document), returns: firstReturns, reports: firstReports };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    }

    // A rider's request to send lines back (docs/product.md §25): numbered RET-<year>-<n> from a yearly counter row.
    await db.schema
      .createTable('return_request')
      .addColumn('number', 'text', (c) => c.primaryKey())
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('uid', 'text', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('received_at', 'bigint')
      .addColumn('settled_at', 'bigint')
      .addColumn('refused_reason', 'text')
      .addColumn('refund_shipping', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('refund_started_at', 'bigint')
      .addColumn('refund_problem', 'text')
      .addColumn('refund_attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('exchange_order', 'integer', (c) => c.references('shop_order.number'))
      .execute();
    await db.schema.createIndex('return_request_order').on('return_request').column('order_number').execute();
    await db.schema
      .createIndex('return_request_state')
      .on('return_request')
      .columns(['state', 'requested_at'])
      .execute();

    // Its lines: each an order line (one unit each), asked back once while its request is open or settled; a refused
    // request's lines are `active` 0 and may be asked again.
    await db.schema
      .createTable('return_line')
      .addColumn('return_number', 'text', (c) => c.notNull().references('return_request.number'))
      .addColumn('order_number', 'integer', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('exchange_size', 'text')
      .addColumn('exchange_size_key', 'text')
      .addColumn('received_at', 'bigint')
      .addColumn('restocked', 'integer')
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addPrimaryKeyConstraint('return_line_pk', ['return_number', 'position'])
      .addForeignKeyConstraint('return_line_order_line', ['order_number', 'position'], 'order_line', [
        'order_number',
        'position',
      ])
      .execute();
    await sql`create unique index return_line_once on return_line (order_number, position) where active = 1`.execute(
      db,
    );

    // Every refund of an order, a whole cancel's or a return's: the order's running total after it is kept with it and
    // held against what was paid, and two refunds cannot take the same next `seq` (docs/decisions/0064-returns.md).
    await db.schema
      .createTable('refund')
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('return_number', 'text', (c) => c.references('return_request.number'))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', money, (c) => c.notNull())
      .addColumn('goods_cents', money, (c) => c.notNull())
      .addColumn('discount_cents', money, (c) => c.notNull())
      .addColumn('shipping_cents', money, (c) => c.notNull())
      .addColumn('tax_cents', money, (c) => c.notNull())
      .addColumn('tax_lines', 'text', (c) => c.notNull())
      .addColumn('refunded_cents', money, (c) => c.notNull())
      .addColumn('paid_cents', money, (c) => c.notNull())
      .addColumn('credit_note', 'text')
      .addColumn('provider_refund_id', 'text')
      .addPrimaryKeyConstraint('refund_pk', ['order_number', 'seq'])
      .addCheckConstraint('refund_never_more_than_paid', sql`amount_cents > 0 and refunded_cents <= paid_cents`)
      .execute();
    await db.schema.createIndex('refund_at').on('refund').column('at').execute();
    await sql`create unique index refund_of_return on refund (return_number) where return_number is not null`.execute(
      db,
    );

    // An order may now have several credit notes, one per refund: the one-per-kind index holds for invoices and for a
    // whole cancel's credit note (no return), a return's is one per return.
    await db.schema.alterTable('invoice').addColumn('return_number', 'text').execute();
    await db.schema.dropIndex('invoice_order_kind').execute();
    await sql`create unique index invoice_order_kind on invoice (order_number, kind) where return_number is null`.execute(
      db,
    );
    await sql`create unique index invoice_of_return on invoice (return_number) where return_number is not null`.execute(
      db,
    );

    // The refunds of orders cancelled after they were paid, as the cancel made them: the whole order, on its cancel's
    // day, with its credit note if it had an invoice.
    let after = 0;
    for (;;) {
      const orders = await sql<{
        number: number;
        money: string;
        total_cents: number | string;
        at: number | string;
        refund_id: string | null;
      }>`select o.number, o.money, o.total_cents, o.refund_id,
            (select max(c.at) from order_event c where c.order_number = o.number and c.status = 'cancelled') as at
          from shop_order o
          where o.status = 'cancelled' and o.number > ${after}
            and exists (select 1 from order_event p where p.order_number = o.number and p.status = 'paid')
          order by o.number limit ${page}`.execute(db);
      for (const order of orders.rows) {
        const parts = JSON.parse(order.money) as {
          subtotalCents?: number;
          shippingCents?: number;
          adjustments?: { amountCents: number }[];
          taxLines?: { name: string; rate: number; amountCents: number; included: boolean }[];
        };
        const total = Number(order.total_cents);
        if (total <= 0) continue;
        const taxLines = (parts.taxLines ?? []).map(({ name, rate, amountCents, included }) => ({
          name,
          rate,
          amountCents,
          included,
        }));
        const note = await sql<{ number: string }>`select number from invoice
          where order_number = ${order.number} and kind = 'credit-note'`.execute(db);
        await db
          .insertInto('refund' as never)
          .values({
            order_number: order.number,
            seq: 1,
            return_number: null,
            at: Number(order.at),
            amount_cents: total,
            goods_cents: Number(parts.subtotalCents ?? 0),
            discount_cents: -(parts.adjustments ?? []).reduce((sum, a) => sum + Number(a.amountCents), 0),
            shipping_cents: Number(parts.shippingCents ?? 0),
            tax_cents: taxLines.reduce((sum, line) => sum + Number(line.amountCents), 0),
            tax_lines: JSON.stringify(taxLines),
            refunded_cents: total,
            paid_cents: total,
            credit_note: note.rows[0]?.number ?? null,
            provider_refund_id: order.refund_id,
          } as never)
          .execute();
      }
      const last = orders.rows.at(-1);
      if (!last || orders.rows.length < page) break;
      after = last.number;
    }
  },
});
