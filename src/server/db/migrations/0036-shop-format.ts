import type { Migration } from 'kysely';

/**
 * How a shop's amounts and days read, as this migration adds it to the stored document for a new shop and an upgraded
 * one alike (docs/decisions/0053-an-orders-money-as-one-value.md): the values the code fixed until then, so that every
 * shop reads as before. Part of this migration: never edit it.
 */
export const firstFormat: { currency: string; locale: string; timeZone: string } = {
  currency: 'USD',
  locale: 'en-US',
  timeZone: 'America/New_York',
};

export const migration: Migration = {
  async up(db) {
    // The shop's currency, locale and time zone become settings (docs/decisions/0053-an-orders-money-as-one-value.md),
    // started from the values the code fixed: a shop saved since keeps every other section as the owner left it.
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (!row) return;
    const document = { ...JSON.parse(row.document), format: firstFormat };
    await db
      .updateTable('shop_settings')
      .set({ document: JSON.stringify(document) })
      .where('id', '=', 1)
      .execute();
  },
};
