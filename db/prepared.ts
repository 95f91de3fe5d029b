import { is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { SQLiteTransaction } from 'drizzle-orm/sqlite-core';
import type { InArgs, InStatement } from '@libsql/client';
import type { Column } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Drizzle queries built once per database instead of once per call.
 *
 * Why: building a query (walking its columns and conditions into SQL text) costs Drizzle
 * far more than running it (about ten times, for checkout's variant lookup). A query written with `sql.placeholder(...)` for its
 * values is built once here, per database and name, and then only run.
 *
 * Inside a transaction the query is built on that transaction each time (a prepared query
 * belongs to the connection it was built for).
 */
const built = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(database: DbOrTx, name: string, build: (database: DbOrTx) => T): T {
  if (database instanceof SQLiteTransaction) return build(database);
  let byName = built.get(database);
  if (!byName) built.set(database, (byName = new Map()));
  let query = byName.get(name) as T | undefined;
  if (query === undefined) {
    query = build(database);
    byName.set(name, query);
  }
  return query;
}

/**
 * `column IN (the ids)` with ONE placeholder for the whole list (a JSON array), so a list
 * of any length is the same statement: built and compiled once. SQLite still looks each
 * id up by index. Pass the values with `idList(ids)`.
 */
export function inIdList(column: Column | SQL, placeholder: string): SQL {
  return sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;
}

export function idList(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

type PreparedLike = { getQuery(): { sql: string; params: unknown[] } };
type Filler = { sql: string; fill: (values: Record<string, unknown>) => InArgs };

/** Each prepared query's SQL and how to fill its values, worked out once per query. */
const fillers = new WeakMap<PreparedLike, Filler>();

/**
 * A prepared query with its values as a plain statement, for `$client.batch`: several
 * writes in one transaction without building any of them again.
 *
 * Drizzle's fillPlaceholders asks of every parameter, on every call, what kind it is; a
 * prepared query's parameters never change, so that is asked once here, and each call
 * only reads its values (encoded by the column, as drizzle does).
 */
export function statementOf(query: PreparedLike, values: Record<string, unknown>): InStatement {
  let filler = fillers.get(query);
  if (!filler) {
    filler = compileFiller(query.getQuery());
    fillers.set(query, filler);
  }
  return { sql: filler.sql, args: filler.fill(values) };
}

function compileFiller({ sql: text, params }: { sql: string; params: unknown[] }): Filler {
  const value = (values: Record<string, unknown>, name: string) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return values[name];
  };
  const steps = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    if (is(p, Placeholder)) return (values) => value(values, p.name);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const { encoder } = p;
      const { name } = p.value;
      // As drizzle does for a value it inlines: SQL NULL stays NULL, never a JSON column's 'null'.
      return (values) => {
        const v = value(values, name);
        return v === null || v === undefined ? null : encoder.mapToDriverValue(v);
      };
    }
    return () => p;
  });
  return { sql: text, fill: (values) => steps.map((step) => step(values)) as InArgs };
}
