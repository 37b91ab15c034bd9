/**
 * The two databases a migration may run on. A migration's own copy of `Dialect` in src/server/db/open.ts: a migration
 * imports nothing outside this folder but Kysely (docs/decisions/0057-boundaries-that-hold.md).
 */
export type Dialect = 'sqlite' | 'postgres';
