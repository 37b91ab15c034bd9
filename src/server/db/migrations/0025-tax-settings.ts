import type { Migration } from 'kysely';

/**
 * The tax a shop starts with, as this migration adds it to the stored document (docs/decisions/0041-tax-settings.md):
 * no rates and prices that include any tax, so that it charges what it charged before; shipping taxed as the goods
 * are once the owner adds a rate, as most places tax a delivery sold with the goods. Part of this migration: never
 * edit it.
 */
export const firstTax: { pricesIncludeTax: boolean; taxShipping: boolean; rates: [] } = {
  pricesIncludeTax: true,
  taxShipping: true,
  rates: [],
};

export const migration: Migration = {
  async up(db) {
    // The settings gain their tax section (docs/decisions/0041-tax-settings.md): no rates, prices that include any
    // tax, as the shop charged before; a shop saved since keeps every other section as the owner left it.
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (!row) return;
    const document = { ...JSON.parse(row.document), tax: firstTax };
    await db
      .updateTable('shop_settings')
      .set({ document: JSON.stringify(document) })
      .where('id', '=', 1)
      .execute();
  },
};
