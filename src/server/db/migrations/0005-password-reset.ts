import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    await db.schema
      .createTable('password_reset')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('password_reset_uid').on('password_reset').column('uid').execute();
    await db.schema.createIndex('password_reset_expires_at').on('password_reset').column('expires_at').execute();
  },
};
