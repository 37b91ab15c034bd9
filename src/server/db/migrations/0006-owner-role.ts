import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    await db.schema
      .createTable('user_role')
      .addColumn('uid', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .execute();
  },
};
