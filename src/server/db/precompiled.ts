import type { Compilable, Kysely } from 'kysely';
import type { Tables } from './schema';

/** What stands for argument `i` while a query is compiled: a text no caller could send. */
const marker = (i: number) => `\u0000piaffe-argument-${i}`;

/**
 * A query built and compiled once, for the hot requests: Kysely would otherwise build its tree and compile its SQL
 * anew on every call. `build` receives stand-ins for its `arity` arguments and must use each only as a bound value
 * (a `where` operand, an inserted value), never to shape the query (no `in` list of varying length, no `limit`).
 * Each call runs the compiled SQL with the real arguments, on `executor`: the database, or a unit of work's
 * transaction (the same dialect as the query was compiled for).
 */
export function precompile<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>,
): (executor: Kysely<Tables>, ...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, i) => marker(i));
  const compiled = build(...(markers as Args)).compile();
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
    return (await executor.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
