import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // PostgreSQL's GIN indexes of the search (docs/decisions/0045-finding-at-ten-thousand-products.md) take each
    // change into their index at once, rather than into a pending list that every search reads through until a
    // vacuum merges it; the list they hold now is merged here. SQLite's FTS5 has no such list.
    if (dialect !== 'postgres') return;
    for (const index of ['product_search_body', 'search_word_trigrams']) {
      await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
      await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
    }
  },
});
