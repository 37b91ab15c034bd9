import type { Migration } from 'kysely';

/**
 * Whether the shop cancels unpaid bank-transfer orders, as this migration adds it to the stored document's bank
 * transfer section, for a new shop and an upgraded one alike (docs/decisions/0049-unpaid-bank-transfers.md): on, so
 * that an unpaid order no longer holds its stock and its discount code's use for ever. Part of this migration: never
 * edit it.
 */
export const firstCancelUnpaid = true;

export const migration: Migration = {
  async up(db) {
    // An unpaid bank-transfer order is reminded once, then cancelled by the shop
    // (docs/decisions/0049-unpaid-bank-transfers.md): `pay_by` is the end of the last day its reminder gave, null
    // until the reminder is sent; the settings' bank transfer section gains the owner's switch, on. A shop saved
    // since keeps every other field as the owner left it.
    await db.schema.alterTable('shop_order').addColumn('pay_by', 'bigint').execute();
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (!row) return;
    const document = JSON.parse(row.document);
    document.bankTransfer = { ...document.bankTransfer, cancelUnpaid: firstCancelUnpaid };
    await db
      .updateTable('shop_settings')
      .set({ document: JSON.stringify(document) })
      .where('id', '=', 1)
      .execute();
  },
};
