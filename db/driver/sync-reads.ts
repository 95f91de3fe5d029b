import Database from 'libsql';
import type { Client } from '@libsql/client';
import { isTraced, syncSpan } from './traced-client';

/**
 * Statements prepared once, on a read connection of their own to the database's local
 * file, and run synchronously: for the few reads every request makes (the credential, the
 * catalog version), where the client's per-call compile and its promise cost more than the
 * read. The answers are the same fresh, committed rows as any read's: only the compiled
 * statements are kept.
 *
 * Only for a local file (`file:` URL): an in-memory database, a transaction or a remote
 * libSQL server has none, and callers then take their ordinary query (every function here
 * answers undefined or null for "not available"). Any failure drops the connection; the
 * next call opens a fresh one.
 */
export type SyncStatement = { sql: string; raw?: boolean };
export type SyncReader<N extends string> = { get(name: N, ...params: unknown[]): unknown };

/** Reads in WAL mode do not wait for writers; this only bounds a checkpoint's rare lock. */
const BUSY_TIMEOUT_MS = 5000;

type Open<N extends string> = { connection: Database.Database; statements: Record<N, Database.Statement>; reader: SyncReader<N> };

export function syncReads<N extends string>(definitions: Record<N, SyncStatement>) {
  const opening = new WeakMap<object, Promise<Open<N> | null>>();
  const ready = new WeakMap<object, Open<N>>();

  const drop = (database: object, open: Open<N>) => {
    opening.delete(database);
    ready.delete(database);
    try {
      open.connection.close();
    } catch {
      // already unusable
    }
  };

  const openFor = (database: object): Promise<Open<N> | null> => {
    const client = (database as { $client?: Client }).$client;
    if (!client || client.protocol !== 'file') return Promise.resolve(null);
    let entry = opening.get(database);
    if (!entry) {
      entry = openConnection(client, definitions).then(
        (open) => {
          if (open) ready.set(database, open);
          return open;
        },
        () => null,
      );
      opening.set(database, entry);
    }
    return entry;
  };

  const attempt = <T>(database: object, open: Open<N>, read: (reader: SyncReader<N>) => T): T | undefined => {
    try {
      return read(open.reader);
    } catch {
      drop(database, open);
      return undefined;
    }
  };

  return {
    /** `read` at once, when the statements are open (no promise); undefined when they are not (yet). */
    now<T>(database: object, read: (reader: SyncReader<N>) => T): T | undefined {
      const open = ready.get(database);
      return open ? attempt(database, open, read) : undefined;
    },
    /** `read`, opening the statements first if need be; undefined when this database has none. */
    async run<T>(database: object, read: (reader: SyncReader<N>) => T): Promise<T | undefined> {
      const open = ready.get(database) ?? (await openFor(database));
      return open ? attempt(database, open, read) : undefined;
    },
  };
}

async function openConnection<N extends string>(client: Client, definitions: Record<N, SyncStatement>): Promise<Open<N> | null> {
  // The file this client has open, from SQLite itself (so any URL form resolves alike).
  const list = await client.execute('PRAGMA database_list');
  const file = String(list.rows.find((r) => r.name === 'main')?.file ?? '');
  if (!file) return null; // in-memory: another connection would be another database
  const connection = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  const statements = {} as Record<N, Database.Statement>;
  for (const name of Object.keys(definitions) as N[]) {
    const statement = connection.prepare(definitions[name].sql);
    statements[name] = definitions[name].raw ? statement.raw(true) : statement;
  }
  const get = (name: N, ...params: unknown[]) => statements[name].get(...params);
  // Traced like the client's statements (./traced-client.ts) when the client is.
  const reader: SyncReader<N> = {
    get: isTraced(client) ? (name, ...params) => syncSpan(definitions[name].sql, () => get(name, ...params)) : get,
  };
  return { connection, statements, reader };
}
