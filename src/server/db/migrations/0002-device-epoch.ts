import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Bumping a user's epoch invalidates every device cookie issued before (src/server/auth/device-cookie.ts).
    await db.schema
      .createTable('device_epoch')
      .addColumn('uid', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
      .addColumn('epoch', 'integer', (c) => c.notNull())
      .execute();
  },
};
