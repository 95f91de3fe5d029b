import type Database from 'libsql';
import { ConnectionPool, Sqlite3Client } from '@libsql/client/sqlite3';
import type { Client } from '@libsql/client';
import { allWithin } from './statement-time-limit';

/**
 * A libSQL client for a local file whose connections compile each distinct statement
 * once and keep it, instead of once per call.
 *
 * Why: `@libsql/client` prepares (compiles) every statement again on every call, and for
 * the short indexed statements this service runs that is most of their cost (compiling
 * checkout's variant lookup takes longer than running it), and a checkout runs half a
 * dozen statements. Drizzle sends the same SQL
 * text with different arguments, so a per-connection map from SQL text to its compiled
 * statement serves nearly every call after the first.
 *
 * It is the library's own client (`Sqlite3Client`) over the library's own pool, with one
 * difference: each connection the pool opens answers `prepare` from its cache. Results,
 * errors and transactions are the library's, unchanged.
 *
 * Safe because a statement runs synchronously to completion (`all`/`run` step it until
 * SQLite says done, which also ends its implicit read), and a connection is used by one
 * call at a time. A statement that throws is dropped from the cache — except when it
 * failed because another process held the lock (SQLITE_BUSY/LOCKED): SQLite keeps such a
 * statement active (the connection then fails every COMMIT) until it runs again, and the
 * local client's retry runs the same SQL again, which resets it (see local-client.ts).
 */
export function createStatementCachingClient(
  path: string,
  options: {
    timeout: number;
    maxConnections: number;
    /** SQLite's page cache per connection (KiB); its default is 2,000. */ pageCacheKib?: number;
    /** A read statement's time limit (statement-time-limit.ts); none when absent. */ statementTimeoutMs?: number;
  },
): Client {
  const pool = new StatementCachingPool(path, { timeout: options.timeout }, options.maxConnections);
  pool.pageCacheKib = options.pageCacheKib;
  pool.statementTimeoutMs = options.statementTimeoutMs;
  // Same probe as the library's createClient: fail at start-up if the file cannot be opened.
  const probe = pool.acquireSync();
  try {
    probe.prepare('SELECT 1').get();
  } finally {
    pool.release(probe);
  }
  return new Sqlite3Client(pool, 'number') as unknown as Client;
}

/** Distinct statements kept per connection; least recently used out first. */
export const STATEMENTS_PER_CONNECTION = 256;

class StatementCachingPool extends ConnectionPool {
  pageCacheKib: number | undefined;
  statementTimeoutMs: number | undefined;

  override acquireSync(forTransaction = false): Database.Database {
    return withStatementCache(super.acquireSync(forTransaction), this.pageCacheKib, this.statementTimeoutMs);
  }
}

const cached = new WeakSet<Database.Database>();

function withStatementCache(
  connection: Database.Database,
  pageCacheKib: number | undefined,
  statementTimeoutMs: number | undefined,
): Database.Database {
  if (cached.has(connection)) return connection;
  cached.add(connection);
  if (pageCacheKib !== undefined) connection.exec(`PRAGMA cache_size = -${Math.max(64, Math.floor(pageCacheKib))}`);
  const compile = connection.prepare.bind(connection);
  const statements = new Map<string, Database.Statement>();
  connection.prepare = ((sql: string) => {
    const hit = statements.get(sql);
    if (hit) {
      // re-insert: Map order is the recency order
      statements.delete(sql);
      statements.set(sql, hit);
      return hit;
    }
    const compiled = compile(sql);
    if (statementTimeoutMs !== undefined)
      Object.defineProperty(compiled, 'all', { value: allWithin(connection, compiled, statementTimeoutMs), configurable: true });
    const statement = dropOnError(compiled, () => {
      if (statements.get(sql) === statement) statements.delete(sql);
    });
    statements.set(sql, statement);
    if (statements.size > STATEMENTS_PER_CONNECTION) statements.delete(statements.keys().next().value!);
    return statement;
  }) as typeof connection.prepare;
  return connection;
}

/**
 * The statement, with every call that can fail dropping it from the cache first, and the
 * answers that cannot change for a compiled statement remembered: the library asks for
 * its columns (twice) and sets raw and 64-bit modes on every call, and learns that a
 * statement returns no rows by catching what `raw()` throws — each a native call.
 */
function dropOnError(statement: Database.Statement, drop: () => void): Database.Statement {
  const native = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
  const define = (name: string, value: (...args: unknown[]) => unknown) => Object.defineProperty(statement, name, { value });
  for (const name of ['run', 'get', 'all', 'iterate'] as const) {
    const method = native[name]!;
    define(name, (...args) => {
      try {
        return method.apply(statement, args);
      } catch (error) {
        if (!isBusy(error)) drop();
        throw error;
      }
    });
  }
  const { columns, raw, safeIntegers } = native as Record<'columns' | 'raw' | 'safeIntegers', (...args: unknown[]) => unknown>;
  let columnList: unknown;
  let rawMode: boolean | undefined;
  let returnsNoRows: unknown;
  let safeMode: boolean | undefined;
  define('columns', () => (columnList ??= columns.call(statement)));
  define('raw', (on = true) => {
    if (returnsNoRows) throw returnsNoRows;
    if (rawMode !== on) {
      try {
        raw.call(statement, on);
      } catch (error) {
        returnsNoRows = error;
        throw error;
      }
      rawMode = on as boolean;
    }
    return statement;
  });
  define('safeIntegers', (on = true) => {
    if (safeMode !== on) {
      safeIntegers.call(statement, on);
      safeMode = on as boolean;
    }
    return statement;
  });
  return statement;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}
