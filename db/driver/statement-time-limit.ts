import type Database from 'libsql';

/**
 * A time limit on each read statement of a local file (DATABASE_STATEMENT_TIMEOUT_MS).
 *
 * Why: a statement runs synchronously on the event loop, so one that runs long stalls every
 * request of the process with it. SQLite can stop a statement (sqlite3_interrupt), but the
 * driver (the `libsql` package, 0.5) offers neither SQLite's progress handler nor a query
 * timeout, only the connection's `interrupt()`, which JavaScript can call only while it runs:
 * between the batches of rows the driver steps (100 at a time). So a read's rows are taken
 * here batch by batch, and past its deadline the connection is interrupted: SQLite stops the
 * statement at its next step and halts it (the connection stays usable, nothing is left in
 * progress), and the driver throws SQLITE_INTERRUPT, which the API answers 503 with
 * Retry-After (db/faults.ts, "timeout").
 *
 * What it cannot cut short: the work before a statement's first batch of rows (a large sort
 * or aggregate). The service's reads avoid those by design (indexed reads, the list index's
 * passes in memory); this is the backstop for a read that streams more than it should.
 *
 * The connection's interrupt, not the statement's: a statement's own flag
 * (libsql_stmt_interrupt) stays set until a reset the driver never does, so a kept statement
 * would fail every later run. The connection's ends with the statement, and a connection
 * runs one statement at a time (the driver is synchronous).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 2_000;

/** The driver's batch (libsql's iterate() steps this many rows at once). */
const DRIVER_BATCH = 100;

/**
 * The statement's `all`, reading its rows through its own `iterate` with the deadline checked
 * at each of the driver's batches. Answers as the driver's `all` does (pluck mode included).
 */
export function allWithin(connection: Database.Database, statement: Database.Statement, limitMs: number) {
  const iterate = statement.iterate.bind(statement) as (...args: unknown[]) => Iterator<unknown>;
  return (...args: unknown[]): unknown[] => {
    const deadline = performance.now() + limitMs;
    const pluck = (statement as unknown as { pluckMode?: boolean }).pluckMode === true;
    const rows: unknown[] = [];
    const iterator = iterate(...args);
    let interrupted = false;
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const row = next.value as Record<string, unknown>;
      rows.push(pluck ? row[Object.keys(row)[0]!] : row);
      if (!interrupted && rows.length % DRIVER_BATCH === 0 && performance.now() > deadline) {
        // The driver's next step meets it and throws SQLITE_INTERRUPT.
        (connection as unknown as { interrupt(): void }).interrupt(); // in the driver, not in its typings
        interrupted = true;
      }
    }
    return rows;
  };
}
