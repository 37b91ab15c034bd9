import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../db/open';

/**
 * The search index of each database (docs/decisions/0036-finding-products.md): SQLite's FTS5, PostgreSQL's full text
 * with `unaccent`, and a vocabulary of the words indexed for forgiving one wrong letter (SQLite: each word under its
 * one-letter deletions; PostgreSQL: `pg_trgm`'s trigram index). A product is indexed again in the unit of work of each
 * change to its name, details or categories.
 */

// The stores' Kysely; migration 0017 runs its own copy of what it needed (docs/decisions/0057-boundaries-that-hold.md).
// biome-ignore lint/suspicious/noExplicitAny: the index's tables are made and used here alone, in SQL.
type Executor = Kysely<any>;

/** The fewest letters a searched word needs for one wrong letter in it to be forgiven. */
export const typoMinLength = 5;
/** The most words of a search that count: the rest are left out. */
const wordsMax = 8;

/** The words of a text as search sees them: runs of letters and digits, without their accents, in lower case. */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Whether `a` becomes `b` with one letter replaced, left out or added (by code point). */
export function oneLetterApart(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i += 1;
  // The first difference: replaced (the rest equal after it) or one added to the longer (the rest equal from it).
  const rest = (from: string[], at: number, to: string[], at2: number) =>
    from.slice(at).join('') === to.slice(at2).join('');
  return short.length === long.length ? rest(short, i + 1, long, i + 1) : rest(short, i, long, i + 1);
}

/** `word` with each of its letters left out in turn. */
function deletions(word: string): string[] {
  const letters = [...word];
  return letters.map((_, i) => [...letters.slice(0, i), ...letters.slice(i + 1)].join(''));
}

/**
 * The schema of PostgreSQL's `unaccent` and `pg_trgm`: made once per database, where every shop of it (every test
 * run, each in a schema of its own) finds them. An extension belongs to the database, not to one schema, and one made
 * in a shop's schema would go with it when that schema is dropped.
 */
const extensions = sql.id('public');

/**
 * Makes the index's tables. On PostgreSQL the extensions come first, in `extensions`; shops migrating at once make
 * them one after another, and a database that has them elsewhere is told so.
 */
export async function createSearchTables(db: Executor, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table product_search using fts5(body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`.execute(
      db,
    );
    await db.schema
      .createTable('search_word')
      .addColumn('word', 'text', (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable('search_variant')
      .addColumn('variant', 'text', (c) => c.notNull())
      .addColumn('word', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('search_variant_pk', ['variant', 'word'])
      .execute();
    return;
  }
  await sql`select pg_advisory_xact_lock(hashtext('piaffe_extensions'))`.execute(db);
  await sql`create extension if not exists unaccent schema public`.execute(db);
  await sql`create extension if not exists pg_trgm schema public`.execute(db);
  const { rows } = await sql<{ name: string; schema: string }>`select e.extname as name, n.nspname as schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname in ('unaccent', 'pg_trgm')`.execute(
    db,
  );
  const elsewhere = rows.find((row) => row.schema !== 'public');
  if (elsewhere)
    throw new Error(`Piaffe needs the extension ${elsewhere.name} in schema public, not ${elsewhere.schema}.`);
  await db.schema
    .createTable('product_search')
    .addColumn('itemid', 'text', (c) => c.primaryKey().references('product.itemid'))
    .addColumn('body', sql`tsvector`, (c) => c.notNull())
    .execute();
  await sql`create index product_search_body on product_search using gin (body)`.execute(db);
  await db.schema
    .createTable('search_word')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .execute();
  await sql`create index search_word_trigrams on search_word using gin (word ${extensions}.gin_trgm_ops)`.execute(db);
}

/** Indexes the product as `db` (a unit of work's transaction) has it now: its name, details and categories' names. */
export async function indexProduct(db: Executor, dialect: Dialect, itemid: string): Promise<void> {
  const rows: { name: string; details: string; category: string | null }[] = await db
    .selectFrom('product as p')
    .leftJoin('product_category as pc', 'pc.itemid', 'p.itemid')
    .leftJoin('category as c', 'c.slug', 'pc.category')
    .select(['p.name', 'p.details', 'c.name as category'])
    .where('p.itemid', '=', itemid)
    .orderBy('c.position')
    .execute();
  const first = rows[0];
  if (!first) return;
  const text = [first.name, first.details, ...rows.flatMap((r) => (r.category ? [r.category] : []))].join(' ');
  const words = searchWords(text);
  const body = words.join(' ');
  if (dialect === 'sqlite') {
    // The item number, a whole number, is the product's row of the index.
    const row = Number(itemid);
    await sql`delete from product_search where rowid = ${row}`.execute(db);
    await sql`insert into product_search (rowid, body) values (${row}, ${body})`.execute(db);
  } else {
    await sql`insert into product_search (itemid, body) values (${itemid}, to_tsvector('simple', ${extensions}.unaccent(${body})))
      on conflict (itemid) do update set body = excluded.body`.execute(db);
  }
  await addToVocabulary(db, dialect, words);
}

/**
 * Adds the words that a wrong letter can lead to (those one letter shorter than `typoMinLength` and longer) to the
 * vocabulary. A word no product has any longer stays: searching for it finds nothing, as a word never indexed does.
 */
async function addToVocabulary(db: Executor, dialect: Dialect, words: readonly string[]): Promise<void> {
  const candidates = [...new Set(words.filter((w) => [...w].length >= typoMinLength - 1))];
  if (candidates.length === 0) return;
  const added: { word: string }[] = await db
    .insertInto('search_word')
    .values(candidates.map((word) => ({ word })))
    .onConflict((oc) => oc.column('word').doNothing())
    .returning('word')
    .execute();
  if (dialect !== 'sqlite' || added.length === 0) return;
  const variants = added.flatMap(({ word }) => [word, ...deletions(word)].map((variant) => ({ variant, word })));
  await db
    .insertInto('search_variant')
    .values(variants)
    .onConflict((oc) => oc.columns(['variant', 'word']).doNothing())
    .execute();
}

/** The vocabulary's words one letter apart from `word` (none for a word shorter than `typoMinLength`). */
async function typoTargets(db: Executor, dialect: Dialect, word: string): Promise<string[]> {
  if ([...word].length < typoMinLength) return [];
  let found: { word: string }[];
  if (dialect === 'sqlite') {
    // A word one letter apart shares a variant with it: itself, one of its deletions, or a deletion of both.
    found = await db
      .selectFrom('search_variant')
      .select('word')
      .distinct()
      .where('variant', 'in', [word, ...deletions(word)])
      .execute();
  } else {
    // A word of five letters or more one letter apart has at least a third of its trigrams in common (pg_trgm's `%`).
    found = (
      await sql<{ word: string }>`select word from search_word where word operator(${extensions}.%) ${word}`.execute(db)
    ).rows;
  }
  return found.map((r) => r.word).filter((candidate) => oneLetterApart(word, candidate));
}

/**
 * The products a search matches, shown or hidden, as a query of their `itemid`s read from the index alone: every word
 * of it starts a word of the product's, or does with one letter changed; none when `q` has no word at all.
 */
export async function searchMatches(
  db: Executor,
  dialect: Dialect,
  q: string,
): Promise<RawBuilder<{ itemid: string }>> {
  const words = [...new Set(searchWords(q))].slice(0, wordsMax);
  if (words.length === 0) return sql<{ itemid: string }>`select itemid from product where 1 = 0`;
  const terms = await Promise.all(words.map(async (word) => [word, ...(await typoTargets(db, dialect, word))]));
  if (dialect === 'sqlite') {
    const match = terms.map((any) => `(${any.map((t) => `"${t}"*`).join(' OR ')})`).join(' AND ');
    return sql<{
      itemid: string;
    }>`select cast(rowid as text) as itemid from product_search where product_search match ${match}`;
  }
  const any = (group: string[]) => sql`'(' || ${sql.join(group.map(prefixLexeme), sql` || ' | ' || `)} || ')'`;
  const query = sql.join(terms.map(any), sql` || ' & ' || `);
  return sql<{
    itemid: string;
  }>`select itemid from product_search where body @@ to_tsquery('simple', ${query})`;
}

/**
 * A word of a search as a prefix in `to_tsquery`'s syntax, an SQL expression: the word as `unaccent` makes it (the
 * index's words are made so), then quoted, its quotes and backslashes doubled. Quoted after `unaccent`, not before:
 * `unaccent` makes an apostrophe of letters such as ʼ (U+02BC), which would end a quote made before it. What the word
 * becomes is then text that `to_tsquery` splits as `to_tsvector` split the index's words (o'neill: o, neill).
 */
function prefixLexeme(word: string): RawBuilder<string> {
  return sql`'''' || replace(replace(${extensions}.unaccent(${word}), '\\', '\\\\'), '''', '''''') || ''':*'`;
}
