import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Tables } from './schema';

/** What stands for argument `i` while a query is compiled: a text no caller could send. */
const marker = (i: number) => `\u0000piaffe-argument-${i}`;

/**
 * Runs a compiled query straight on the database's connection, on `executor` (a unit of work's transaction) or
 * outside every unit (`undefined`), and gives its rows, when that is the same as Kysely running it; undefined when
 * the query must go through Kysely (see `directRuns` in database.ts; PostgreSQL: always).
 */
export type DirectRun = (query: CompiledQuery, executor: Kysely<Tables> | undefined) => unknown[] | undefined;

/** How the database runs precompiled queries: directly where it may (SQLite), and each prepared once (PostgreSQL). */
export interface Runner {
  direct: DirectRun;
  /** Told each precompiled query's SQL once: PostgreSQL's connections then send it as a named statement. */
  prepare(sql: string): void;
}

/** A precompiled query: run on the database, or inside a unit of work's transaction. */
export type Precompiled<Args extends unknown[], Row> = (
  executor: Kysely<Tables> | undefined,
  ...args: Args
) => Promise<Row[]>;

/**
 * A query built and compiled once, for the hot requests: Kysely would otherwise build its tree and compile its SQL
 * anew on every call. `build` receives stand-ins for its `arity` arguments and must use each only as a bound value
 * (a `where` operand, an inserted value), never to shape the query (no `in` list of varying length, no `limit`).
 * Each call runs the compiled SQL with the real arguments on `executor` (a unit of work's transaction), or on
 * the database (`undefined`); on SQLite it runs directly on the connection where it may (`direct`), without Kysely's
 * asynchronous layers around a synchronous driver; on PostgreSQL as a statement each connection prepares once.
 */
export function precompile<Args extends unknown[], Row>(
  kysely: Kysely<Tables>,
  { direct, prepare }: Runner,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>,
): Precompiled<Args, Row> {
  const markers = Array.from({ length: arity }, (_, i) => marker(i));
  const compiled = build(...(markers as Args)).compile();
  prepare(compiled.sql);
  // For each parameter of the SQL: the index of the argument it takes, or -1 for a value of the query's own.
  const argumentAt = compiled.parameters.map((value) => (typeof value === 'string' ? markers.indexOf(value) : -1));
  for (let i = 0; i < arity; i++) {
    if (!argumentAt.includes(i))
      throw new Error(`Argument ${i} of a precompiled query is not a bound value: ${compiled.sql}`);
  }
  return async (executor, ...args) => {
    const parameters = compiled.parameters.map((value, at) => {
      const argument = argumentAt[at] ?? -1;
      return argument >= 0 ? args[argument] : value;
    });
    const query = { ...compiled, parameters };
    const rows = direct(query, executor);
    if (rows) return rows as Row[];
    return (await (executor ?? kysely).executeQuery<Row>(query)).rows;
  };
}
