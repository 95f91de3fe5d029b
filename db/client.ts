import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Client } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import * as schema from './schema';
import { createLocalClient, type LocalClient } from './driver/local-client';
import { createRemoteClient } from './driver/remote-client';

export type Database = LibSQLDatabase<typeof schema> & { $client: Client };
/** A transaction handle; domain functions take `tx?: Tx` and default to the database. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

/** busyTimeoutMs: local files; timeoutMs: each request to a remote server (db/driver/remote-client.ts). */
export type DatabaseConfig = { url: string; authToken?: string; busyTimeoutMs?: number; timeoutMs?: number };

/** Milliseconds a writer waits for the lock before giving up (then the API answers 503). */
export const BUSY_TIMEOUT_MS = 5000;

export function openDatabase({ url, authToken, busyTimeoutMs = BUSY_TIMEOUT_MS, timeoutMs }: DatabaseConfig): Database {
  if (url.startsWith('file:')) {
    // libSQL does not create the folder of a database file.
    const path = url.slice('file:'.length).split('?')[0] ?? '';
    if (path && path !== ':memory:') mkdirSync(dirname(resolve(/*turbopackIgnore: true*/ path)), { recursive: true });
  }
  // A local file gets the client that queues this process's writes (see local-client.ts); a
  // server, the one whose every request has a time limit (remote-client.ts).
  const client = url.startsWith('file:') ? createLocalClient({ url, authToken, timeout: busyTimeoutMs }) : createRemoteClient({ url, authToken, timeoutMs });
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

/** WAL lets readers run beside the one writer; it is a property of the file, set once. */
export async function configureLocalDatabase(database: Database, url: string): Promise<void> {
  if (!url.startsWith('file:')) return;
  await database.$client.execute('PRAGMA journal_mode = WAL');
}

export { schema };

/**
 * Runs `work` in a read-only transaction: one consistent snapshot without taking the write
 * lock (drizzle's `transaction()` always opens a write transaction on libSQL).
 */
export async function readTransaction<T>(database: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  const tx = await database.$client.transaction('read');
  try {
    const result = await work(drizzle({ client: tx as unknown as Client, schema, casing: 'snake_case' }) as Database);
    await tx.commit();
    return result;
  } finally {
    tx.close();
  }
}
