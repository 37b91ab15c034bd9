/**
 * The name of the advisory lock of a whole PostgreSQL database's schemas (`pg_advisory_lock(hashtext(name))`, one key,
 * apart from the two-key lock of each schema's migrations). Every migration holds it shared while it runs: Kysely's
 * and Better Auth's introspection read the tables of every schema in the database, and a schema dropped meanwhile
 * fails them ('relation … does not exist'). Whoever drops a shop's schema takes it exclusively in the dropping
 * transaction, so the drop waits for the migrations under way and they for it (the tests drop a schema of their own
 * after each file, while another file's server migrates).
 */
export const schemasLock = 'piaffe_schemas';
