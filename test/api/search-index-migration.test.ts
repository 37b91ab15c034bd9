import { afterAll, expect, it } from 'vitest';
import { Client } from '../support/client';
import { startTestServer } from '../support/server';
import { createDatabase, type TestDatabase, undoSearchIndexWithoutPendingList } from '../support/test-database';

/**
 * Migration 0031 (docs/decisions/0045-finding-at-ten-thousand-products.md): on PostgreSQL the search's GIN indexes take
 * each change at once, with no pending list for every search to read through; a shop from before it has them so once
 * started again, and finds what it found. On SQLite it changes nothing but its row.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

/** The storage options of the search's GIN indexes, by name (PostgreSQL's pg_class.reloptions). */
async function ginOptions(of: TestDatabase): Promise<Record<string, string[] | null>> {
  const rows = await of.query<{ name: string; options: string[] | null }>(
    "select relname as name, reloptions as options from pg_class where relname in ('product_search_body', 'search_word_trigrams') and relnamespace = current_schema()::regnamespace",
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.options]));
}

it('turns the pending list of the search indexes off, and the shop finds what it found', async () => {
  database = await createDatabase();
  const before = await startTestServer({ DATABASE_URL: database.url });
  await before.stop();
  await undoSearchIndexWithoutPendingList(database);
  const postgres = database.backend === 'postgres';
  if (postgres) {
    expect(await ginOptions(database)).toEqual({
      product_search_body: ['fastupdate=on'],
      search_word_trigrams: ['fastupdate=on'],
    });
  }

  const after = await startTestServer({ DATABASE_URL: database.url });
  try {
    const applied = await database.query("select name from piaffe_migration where name like '0031-%'");
    expect(applied).toEqual([{ name: '0031-search-index-without-pending-list' }]);
    if (postgres) {
      expect(await ginOptions(database)).toEqual({
        product_search_body: ['fastupdate=off'],
        search_word_trigrams: ['fastupdate=off'],
      });
    }
    const found = await new Client(after.url).json('GET', '/api/products?q=brdle');
    expect(found.status).toBe(200);
    expect(found.body.products.map((p: { name: string }) => p.name)).toEqual(['Anky Bridle', 'Fellmore Bridle']);
  } finally {
    await after.stop();
  }
});
