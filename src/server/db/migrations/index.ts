import { type Kysely, type Migration, Migrator } from 'kysely';
import { migration as m0001 } from './0001-cart-and-login-attempts';
import { migration as m0002 } from './0002-device-epoch';
import { migration as m0003 } from './0003-orders';
import { migration as m0004 } from './0004-outbox';
import { migration as m0005 } from './0005-password-reset';
import { migration as m0006 } from './0006-owner-role';
import { migration as m0007 } from './0007-sizes-and-stock';
import { migration as m0008 } from './0008-card-payments';
import { migration as m0009 } from './0009-owners-catalogue';
import { migration as m0010 } from './0010-email-confirmation';
import { migration as m0011 } from './0011-passkeys';
import { migration as m0012 } from './0012-order-money-and-delivery';
import { migration as m0013 } from './0013-gapless-counters';
import { migration as m0014 } from './0014-outbox-attachments';
import { migration as m0015 } from './0015-shop-settings';
import { migration as m0016 } from './0016-product-weights';
import { migration as m0017 } from './0017-finding-products';
import { migration as m0019 } from './0019-invoices';
import { migration as m0021 } from './0021-discount-codes';
import { migration as m0023 } from './0023-shipping-zones';
import { migration as m0025 } from './0025-tax-settings';
import { migration as m0031 } from './0031-search-index-without-pending-list';
import { migration as m0033 } from './0033-orders-by-number';
import { migration as m0034 } from './0034-shop-address-in-parts';
import { migration as m0035 } from './0035-unpaid-bank-transfers';
import { migration as m0036 } from './0036-shop-format';
import { migration as m0037 } from './0037-money-in-64-bits';
import { migration as m0038 } from './0038-open-to-visitors';
import { migration as m0039 } from './0039-back-in-stock';
import { migration as m0040 } from './0040-money-per-line';
import { migration as m0041 } from './0041-returns';
import { migration as m0042 } from './0042-report-columns';
import type { Dialect } from './dialect';

/**
 * Our schema, in order: one migration a file, each frozen as it shipped (docs/decisions/0057-boundaries-that-hold.md).
 * A migration imports nothing outside this folder but Kysely: what it needs of the code of its day (the first
 * catalogue, settings, sizes, the search index's SQL) is copied into it, so that changing the live code never changes
 * what an old migration does. Never edit a migration that has shipped; add a new one, and its line here.
 */
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '0001-cart-and-login-attempts': m0001,
  '0002-device-epoch': m0002,
  '0003-orders': m0003(dialect),
  '0004-outbox': m0004,
  '0005-password-reset': m0005,
  '0006-owner-role': m0006,
  '0007-sizes-and-stock': m0007,
  '0008-card-payments': m0008,
  '0009-owners-catalogue': m0009(dialect),
  '0010-email-confirmation': m0010(dialect),
  '0011-passkeys': m0011,
  '0012-order-money-and-delivery': m0012,
  '0013-gapless-counters': m0013(dialect),
  '0014-outbox-attachments': m0014(dialect),
  '0015-shop-settings': m0015,
  '0016-product-weights': m0016,
  '0017-finding-products': m0017(dialect),
  '0019-invoices': m0019,
  '0021-discount-codes': m0021,
  '0023-shipping-zones': m0023,
  '0025-tax-settings': m0025,
  '0031-search-index-without-pending-list': m0031(dialect),
  '0033-orders-by-number': m0033(dialect),
  '0034-shop-address-in-parts': m0034,
  '0035-unpaid-bank-transfers': m0035,
  '0036-shop-format': m0036,
  '0037-money-in-64-bits': m0037(dialect),
  '0038-open-to-visitors': m0038(dialect),
  '0039-back-in-stock': m0039,
  '0040-money-per-line': m0040(dialect),
  '0041-returns': m0041(dialect),
  '0042-report-columns': m0042(dialect),
});

/** The names of our migrations, oldest first: a database that has applied any other comes from a newer Piaffe. */
export const migrationNames: readonly string[] = Object.keys(migrations('sqlite'));

/** The table in which the migrator records what it applied: its presence marks a Piaffe database. */
export const migrationTable = 'piaffe_migration';

/**
 * Applies our migrations; Kysely's migrator takes a lock, so concurrent starts are safe. On PostgreSQL,
 * `schema` names the schema the tables live in: Kysely looks its bookkeeping tables up in every schema
 * unless told which, and would take another schema's for ours. Any Kysely will do: a migration knows no tables.
 */
export async function migrate<T>(db: Kysely<T>, dialect: Dialect, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: migrationTable,
    migrationLockTableName: 'piaffe_migration_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
