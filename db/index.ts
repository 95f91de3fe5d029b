/**
 * The database, as everything outside db/ uses it. The client under it (libSQL, the local
 * file's write queue and checkpoints, the remote server's time limits: db/driver) is
 * reached only through what is exported here; a lint rule holds that line
 * (eslint.config.mjs: no `@libsql/*`, `db/driver` or `.$client` outside db/).
 *
 * - Opening and closing: openDatabase, closeDatabase, overNetwork,
 *   databaseFolder (a local file's folder).
 * - Drizzle: the Database itself (its query builder), readTransaction for one snapshot,
 *   prepared/statementOf for queries built once (db/prepared.ts).
 * - Plain SQL: rows, run, execute; writeBatch and readBatch (one transaction, one request
 *   over a network), writeBatchWith (carrying another layer's statements with it);
 *   readTogether (prepared reads as one batch); beginTransaction.
 * - Reads every request makes, run synchronously on a local file: syncReads.
 * - Another process's view of the file, for tools and tests: openConnection.
 */
export {
  BUSY_TIMEOUT_MS,
  baseDatabase,
  inTransaction,
  openDatabase,
  readTransaction,
  schema,
  withoutWaiting,
  type Database,
  type DatabaseConfig,
  type DbOrTx,
  type Tx,
} from './client';
export { idList, inIdList, prepared, statementOf } from './prepared';
export {
  beginTransaction,
  closeDatabase,
  deleteInSteps,
  deleteStep,
  execute,
  onTransaction,
  overNetwork,
  read,
  readBatch,
  readTogether,
  rows,
  run,
  writeBatch,
  writeBatchWith,
  type PreparedRead,
  type Result,
  type Riders,
  type Row,
  type Statement,
  type StatementTransaction,
  type Value,
} from './statements';
export { syncReads, type SyncReader, type SyncStatement } from './driver/sync-reads';
export { openConnection, type Connection } from './driver/plain-client';
export { databaseFolder } from './driver/open-client';
export { setDatabaseLog } from './log';
