import type { Migration } from 'kysely';
import type { Dialect } from './dialect';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // Links that confirm an address (docs/decisions/0025-confirmed-addresses.md): only the token's SHA-256, and the
    // address the link was sent to, which must still be the account's when it is opened.
    await db.schema
      .createTable('email_confirmation')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('email_confirmation_uid').on('email_confirmation').column('uid').execute();
    await db.schema
      .createIndex('email_confirmation_expires_at')
      .on('email_confirmation')
      .column('expires_at')
      .execute();
    // Accounts that exist when this ships count as confirmed (docs/product.md §15).
    await db
      .updateTable('user')
      .set({ emailVerified: dialect === 'postgres' ? true : 1 })
      .execute();
  },
});
