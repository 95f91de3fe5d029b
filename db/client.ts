import type { Client, InArgs, InStatement, Transaction } from '@libsql/client';
import { SQLiteTransaction } from 'drizzle-orm/sqlite-core';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import * as schema from './schema';
import type { LocalClient } from './driver/local-client';
import { openClient } from './driver/open-client';

export type Database = LibSQLDatabase<typeof schema> & { $client: Client };
/** A transaction handle; domain functions take `tx?: Tx` and default to the database. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

/** busyTimeoutMs: local files; timeoutMs: each request to a remote server (db/driver/remote-client.ts). */
/** statementTimeoutMs: each read statement on a local file (db/driver/statement-time-limit.ts). */
/** checkpointIntervalMs: how often a local file's WAL is checkpointed (db/driver/checkpointer.ts). */
/** traced: a span per statement (db/driver/traced-client.ts), when traces are exported. */
export type DatabaseConfig = {
  url: string;
  authToken?: string;
  busyTimeoutMs?: number;
  timeoutMs?: number;
  statementTimeoutMs?: number;
  checkpointIntervalMs?: number;
  traced?: boolean;
};

/** Milliseconds a writer waits for the lock before giving up (then the API answers 503). */
export const BUSY_TIMEOUT_MS = 5000;

export function openDatabase({
  url,
  authToken,
  busyTimeoutMs = BUSY_TIMEOUT_MS,
  timeoutMs,
  statementTimeoutMs,
  checkpointIntervalMs,
  traced = false,
}: DatabaseConfig): Database {
  // What differs for a local file and a server is chosen in db/driver (open-client.ts).
  const client = openClient({ url, authToken, busyTimeoutMs, timeoutMs, statementTimeoutMs, checkpointIntervalMs, traced });
  return drizzle({ client, schema, casing: 'snake_case' }) as Database;
}

const impatientViews = new WeakMap<Database, Database>();

/**
 * The same database, except that a write fails at once as busy (SQLITE_BUSY) when another
 * process holds the write lock, instead of waiting up to the busy timeout. For writes a
 * request can do without, such as counting a read against its rate limit: the read then
 * goes on uncounted at its normal speed. Anything but a local file is the database itself.
 */
export function withoutWaiting(database: Database): Database {
  const impatient = (database.$client as Partial<LocalClient>).impatient;
  if (!impatient) return database;
  let view = impatientViews.get(database);
  if (!view) impatientViews.set(database, (view = drizzle({ client: impatient, schema, casing: 'snake_case' }) as Database));
  return view;
}

export { schema };

/**
 * Runs `work` in a read-only transaction: every statement it runs on the handle it is given
 * sees one snapshot of the database, so an answer assembled from several statements (a
 * product, its texts, images and variants) never mixes a change half-seen, even while an
 * import commits beside it. No write lock is taken (drizzle's `transaction()` always opens
 * a write transaction on libSQL). One API for both kinds of database: a local file's
 * client runs it on one pooled connection, a remote one (libSQL server, Turso) on one
 * stream (`transaction('read')`).
 *
 * Inside a transaction already (a write transaction's `tx`, or the handle of an enclosing
 * read transaction) `work` simply runs there: that is one snapshot too.
 *
 * The handle is a database of its own to drizzle, kept and reused (one per read
 * transaction running at the same time): queries built once on it (db/prepared.ts) are
 * built once, not at every read. It must not be used after `work` has settled.
 */
export async function readTransaction<T>(database: Database, work: (tx: Database) => Promise<T>): Promise<T>;
export async function readTransaction<T>(database: DbOrTx, work: (tx: DbOrTx) => Promise<T>): Promise<T>;
export async function readTransaction<T>(given: DbOrTx, work: (tx: Database) => Promise<T>): Promise<T> {
  if (inTransaction(given)) return work(given as Database);
  const database = given as Database;
  const tx = await database.$client.transaction('read');
  const handle = takeHandle(database);
  handle.target.tx = tx;
  try {
    const result = await work(handle.database);
    await tx.commit();
    return result;
  } finally {
    handle.target.tx = null;
    tx.close();
    giveBack(database, handle);
  }
}

/** Is this a transaction (a write transaction's `tx`, or a read transaction's handle), not the database itself? */
export function inTransaction(database: DbOrTx): boolean {
  // A write transaction's `tx` has no client of its own. Checked by shape as well as by
  // class: a bundle may hold two copies of Drizzle's classes, and then instanceof says no.
  return database instanceof SQLiteTransaction || !('$client' in database) || snapshotOwners.has(database);
}

/** The database a read transaction's handle reads (itself for anything else): caches key on it. */
export function baseDatabase(database: DbOrTx): DbOrTx {
  return snapshotOwners.get(database) ?? database;
}

type SnapshotHandle = { database: Database; target: { tx: Transaction | null } };
const idleHandles = new WeakMap<Database, SnapshotHandle[]>();
const snapshotOwners = new WeakMap<object, Database>();
/** Idle handles kept per database: enough for the read transactions a process runs at once. */
const IDLE_HANDLES = 32;

function takeHandle(database: Database): SnapshotHandle {
  const idle = idleHandles.get(database)?.pop();
  if (idle) return idle;
  const target: SnapshotHandle['target'] = { tx: null };
  const current = () => {
    if (!target.tx) throw new Error("a read transaction's handle was used after the transaction ended");
    return target.tx;
  };
  // What drizzle asks of a client, passed to the transaction running now.
  const client = {
    execute: (stmt: InStatement | string, args?: InArgs) =>
      current().execute(typeof stmt === 'string' ? { sql: stmt, args: args ?? [] } : stmt),
    batch: (stmts: InStatement[]) => current().batch(stmts),
    executeMultiple: (sql: string) => current().executeMultiple(sql),
    transaction: () => Promise.reject(new Error('a read transaction cannot open another transaction')),
    migrate: () => Promise.reject(new Error('a read transaction cannot migrate')),
    close: () => undefined,
    get closed() {
      return target.tx === null || target.tx.closed;
    },
    protocol: database.$client.protocol,
  } as unknown as Client;
  const handle = { database: drizzle({ client, schema, casing: 'snake_case' }) as Database, target };
  snapshotOwners.set(handle.database, database);
  return handle;
}

function giveBack(database: Database, handle: SnapshotHandle): void {
  let idle = idleHandles.get(database);
  if (!idle) idleHandles.set(database, (idle = []));
  if (idle.length < IDLE_HANDLES) idle.push(handle);
}
