import type { Migration } from 'kysely';
import type { Dialect } from './dialect';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // An e-mail may carry one file (an invoice's PDF), kept with it in the outbox until sent, and after.
    await db.schema.alterTable('outbox').addColumn('attachment_name', 'text').execute();
    await db.schema.alterTable('outbox').addColumn('attachment_type', 'text').execute();
    await db.schema
      .alterTable('outbox')
      .addColumn('attachment_bytes', dialect === 'postgres' ? 'bytea' : 'blob')
      .execute();
  },
});
