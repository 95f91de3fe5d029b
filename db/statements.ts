import type { Client, InArgs, InStatement, InValue, ResultSet, Row, Transaction } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { inTransaction, schema, type Database, type DbOrTx } from './client';
import { statementOf } from './prepared';
import { isOverNetwork } from './driver/remote-client';

/**
 * SQL the app writes itself, beside Drizzle's queries: a statement and its values, run
 * alone, or several as one batch (one transaction and, over a network, one request).
 * Everything here takes the app's Database; the client under it stays in db/.
 */
export type Value = InValue;
/** `{ sql, args }` (positional `?` or named `:name` values), or a text without values. */
export type Statement = InStatement;
/** A row: its values by column name (and by position). */
export type { Row };
/** What a statement answers: its rows, how many rows it changed, the last rowid it inserted. */
export type Result = ResultSet;

/** The rows a statement answers. */
export async function rows<T = Row>(database: Database, sql: string, args: InArgs = []): Promise<T[]> {
  return (await database.$client.execute({ sql, args })).rows as unknown as T[];
}

/** Runs a statement that changes rows; answers how many it changed. */
export async function run(database: Database, sql: string, args: InArgs = []): Promise<{ rowsAffected: number }> {
  const { rowsAffected } = await database.$client.execute({ sql, args });
  return { rowsAffected };
}

/** A statement as it is, with its whole result (the rare caller that needs more than rows). */
export function execute(database: Database, statement: Statement): Promise<Result> {
  return database.$client.execute(statement);
}

/**
 * Statements written as one transaction: all or none. One request over a network (the
 * server runs BEGIN … COMMIT itself); on a local file the batch joins this process's group
 * commit (db/driver/local-client.ts). A statement that fails rolls the batch back and is
 * the error thrown.
 */
export function writeBatch(database: Database, statements: Statement[]): Promise<Result[]> {
  return database.$client.batch(statements, 'write');
}

/**
 * Statements another layer has a write carry in its own batch, so that they commit or fail
 * with it in one request (a rate limit's claim: lib/platform/rate-limit/store.ts). They run
 * first; `settle` is handed their results once the batch has committed.
 */
export type Riders = { readonly statements: readonly Statement[]; settle(results: Result[]): void };

/** writeBatch, carrying `riders` (if any) in the same batch; answers the results of `statements` alone. */
export async function writeBatchWith(database: Database, riders: Riders | null | undefined, statements: Statement[]): Promise<Result[]> {
  if (!riders || riders.statements.length === 0) return writeBatch(database, statements);
  const results = await writeBatch(database, [...riders.statements, ...statements]);
  riders.settle(results.slice(0, riders.statements.length));
  return results.slice(riders.statements.length);
}

/**
 * One step of a clean-up that walks a whole table: deletes the rows matching `where` (a
 * condition on the table's own columns, its values `args`) among the next `chunk` rows after
 * rowid `after`, in one short write. A walk of many such steps never holds the write lock,
 * nor on a local file the process, for longer than a step, where one statement over every
 * row would. Answers how many went and the rowid the next step starts after (null once the
 * table is done). `table` is the app's own name, never input.
 */
export async function deleteStep(
  database: Database,
  table: string,
  where: string,
  args: InValue[],
  after: number,
  chunk: number,
): Promise<{ deleted: number; next: number | null }> {
  const window = `SELECT rowid FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`;
  const [end, deleted] = await writeBatch(database, [
    { sql: `SELECT max(rowid) AS last, count(*) AS seen FROM (${window})`, args: [after, chunk] },
    {
      sql: `DELETE FROM ${table} WHERE rowid > ? AND rowid <= (SELECT max(rowid) FROM (${window})) AND (${where})`,
      args: [after, after, chunk, ...args],
    },
  ]);
  const { last, seen } = end!.rows[0]!;
  // A window short of `chunk` rows reached the table's end: no empty step to learn it.
  return { deleted: deleted!.rowsAffected, next: last === null || Number(seen) < chunk ? null : Number(last) };
}

/** Rows a step of deleteInSteps looks at: a few milliseconds' work on a local file. */
const STEP_ROWS = 1000;

/**
 * Walks the whole table in deleteStep's short writes while `going()` allows (a job stops at
 * its deadline and resumes on its next pass). Answers how many rows went and in how many
 * steps.
 */
export async function deleteInSteps(
  database: Database,
  table: string,
  where: string,
  args: InValue[],
  { chunk = STEP_ROWS, going = () => true }: { chunk?: number; going?: () => boolean } = {},
): Promise<{ deleted: number; steps: number }> {
  let deleted = 0;
  let steps = 0;
  for (let after: number | null = 0; after !== null && going(); steps++) {
    const step = await deleteStep(database, table, where, args, after, chunk);
    deleted += step.deleted;
    after = step.next;
  }
  return { deleted, steps };
}

/** Statements read from one snapshot: over a network one request, on a local file one connection. */
export function readBatch(database: Database, statements: Statement[]): Promise<Result[]> {
  return database.$client.batch(statements, 'read');
}

/** A query built once with placeholders (db/prepared.ts) and the values to fill them with. */
export type PreparedRead<T> = {
  query: {
    getQuery(): { sql: string; params: unknown[] };
    mapAllResult(result: unknown, isFromBatch?: boolean): unknown;
    all(values?: Record<string, unknown>): Promise<T[]>;
  };
  values: Record<string, unknown>;
};
type RowsOf<R> = { -readonly [K in keyof R]: R[K] extends PreparedRead<infer T> ? T[] : never };

/** One read of `readTogether`: `query.all(values)`, to be run with others. */
export function read<T>(query: PreparedRead<T>['query'], values: Record<string, unknown>): PreparedRead<T> {
  return { query, values };
}

/**
 * Prepared reads that do not depend on each other's answers, run as one batch: one snapshot,
 * and over a network one request instead of one each (plus a BEGIN and a COMMIT). Each answer
 * is mapped as Drizzle maps that query's rows. Inside a transaction (or a read transaction's
 * handle) they run there, side by side.
 */
export async function readTogether<const R extends readonly PreparedRead<unknown>[]>(database: DbOrTx, reads: R): Promise<RowsOf<R>> {
  if (inTransaction(database)) return (await Promise.all(reads.map((r) => r.query.all(r.values)))) as RowsOf<R>;
  const results = await (database as Database).$client.batch(
    reads.map((r) => statementOf(r.query, r.values)),
    'read',
  );
  return results.map((result, i) => reads[i]!.query.mapAllResult(result, true)) as RowsOf<R>;
}

/** An open transaction of plain statements: `execute`, `batch`, then `commit` or `rollback`, and always `close`. */
export type StatementTransaction = Pick<Transaction, 'execute' | 'batch' | 'commit' | 'rollback' | 'close' | 'closed'>;

/**
 * A transaction the caller drives statement by statement (a catalog import plans inside one
 * and writes inside another). Over a network every call on it is a request; prefer a batch.
 */
export function beginTransaction(database: Database, mode: 'read' | 'write'): Promise<StatementTransaction> {
  return database.$client.transaction(mode);
}

/** Drizzle on an open statement transaction, for reads (and writes) inside it. */
export function onTransaction(tx: StatementTransaction): Database {
  return drizzle({ client: tx as unknown as Client, schema, casing: 'snake_case' }) as Database;
}

/** Does this database answer over a network (a libSQL server), where every request is a round trip? */
export function overNetwork(database: Database): boolean {
  return isOverNetwork(database.$client);
}

/** Closes the database's connections (and, for a local file, its checkpoint worker). */
export function closeDatabase(database: Database): void {
  database.$client.close();
}
