import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Better Auth makes the `passkey` table from its plugin's schema, as it makes its other tables (connect.ts), with
    // a plain index on the credential id. WebAuthn asks a shop to refuse a credential id already registered, to
    // anyone: the database refuses it (docs/decisions/0026-passkeys.md).
    await db.schema.createIndex('passkey_credential_id_unique').on('passkey').column('credentialID').unique().execute();
  },
};
