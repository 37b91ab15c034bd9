import { type Migration, sql } from 'kysely';

/**
 * The settings as this migration wrote them (their shape then, frozen with it): the shop's address was one line of
 * text until migration 0034.
 */
interface SettingsOf0015 {
  shop: { name: string; legalName: string; address: string; phone: string; email: string; taxId: string };
  bankTransfer: {
    payWithinDays: number;
    accountName: string;
    bankName: string;
    routingNumber: string;
    accountNumber: string;
  };
  paymentMethods: ('bank-transfer' | 'collection' | 'card')[];
}

/**
 * The settings a new shop starts with, as this migration seeds them: the values that were fixed in code before the
 * owner could set them (docs/decisions/0034-the-shops-settings.md). Part of this migration: never edit it (the owner
 * changes the settings in the back office, not here). The address and bank account are fictitious.
 */
export const firstSettings: SettingsOf0015 = {
  shop: {
    name: 'Piaffe',
    legalName: 'Piaffe Saddlery LLC',
    address: '12 Arena Lane, Wellington, FL 33414',
    phone: '(561) 555-0142',
    email: 'shop@piaffe.example',
    taxId: '',
  },
  bankTransfer: {
    payWithinDays: 7,
    accountName: 'Piaffe Saddlery LLC',
    bankName: 'Wellington Community Bank',
    routingNumber: '000000000',
    accountNumber: '0000 1234 5678',
  },
  paymentMethods: ['bank-transfer', 'collection', 'card'],
};

export const migration: Migration = {
  async up(db) {
    // The shop's settings, out of the code and into the owner's hands (docs/decisions/0034-the-shops-settings.md):
    // one row holding the whole document, started from what the code fixed, and the history of its saves.
    await db.schema
      .createTable('shop_settings')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db
      .insertInto('shop_settings')
      .values({ id: 1, document: JSON.stringify(firstSettings), version: 1, updated_at: Date.now() })
      .execute();
    await db.schema
      .createTable('settings_change')
      .addColumn('seq', 'integer', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('by_email', 'text', (c) => c.notNull())
      .addColumn('what', 'text', (c) => c.notNull())
      .execute();
  },
};
