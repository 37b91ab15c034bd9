import { type Kysely, type Migration, Migrator } from 'kysely';
import type { Tables } from './schema';

/** Our schema, in order. Never edit a migration that has shipped; add a new one. */
const migrations: Record<string, Migration> = {
  '0001-cart-and-login-attempts': {
    async up(db) {
      await db.schema
        .createTable('cart_item')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('itemid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cart_item_uid_created_at').on('cart_item').columns(['uid', 'created_at']).execute();
      await db.schema
        .createTable('login_attempt')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0002-device-epoch': {
    async up(db) {
      // Bumping a user's epoch invalidates every device cookie issued before (src/server/auth/device-cookie.ts).
      await db.schema
        .createTable('device_epoch')
        .addColumn('uid', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .execute();
    },
  },
};

/**
 * Applies our migrations; Kysely's migrator takes a lock, so concurrent starts are safe. On PostgreSQL,
 * `schema` names the schema the tables live in: Kysely looks its bookkeeping tables up in every schema
 * unless told which, and would take another schema's for ours.
 */
export async function migrate(db: Kysely<Tables>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'piaffe_migration',
    migrationLockTableName: 'piaffe_migration_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
