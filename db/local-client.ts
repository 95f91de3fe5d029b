import { resolve } from 'node:path';
import { createClient, LibsqlError, type Client, type Config, type InArgs, type InStatement, type Transaction, type TransactionMode } from '@libsql/client';
import { checkpointerFor, DEFAULT_AUTOCHECKPOINT_PAGES } from './checkpointer';
import { createStatementCachingClient } from './statement-cache';

/**
 * A libSQL client for a local SQLite file that is safe under concurrent requests.
 *
 * SQLite has one writer at a time and this driver waits for the lock synchronously: the
 * busy timeout blocks the event loop. Two write transactions of ONE process interleaving
 * at their awaits would so wait on each other with nothing able to move — the second
 * blocks the thread until the timeout and fails. So the writes of one process take turns
 * in an async queue (bounded by the same timeout), and the busy timeout is left to
 * arbitrate between processes, where it works.
 *
 * The driver also leaves a statement that failed with SQLITE_BUSY active until it is
 * garbage-collected, and its connection then fails every COMMIT ("SQL statements in
 * progress"). So after a busy failure the client is replaced with a fresh one.
 */
export function createLocalClient(config: Config & { timeout: number }): Client {
  const queue = writeQueueFor(config.url, Math.max(config.timeout, 50));
  const path = filePath(config.url);
  // WAL checkpoints run on a worker thread of their own (see checkpointer.ts).
  const checkpointer = path ? checkpointerFor(path) : null;
  // Reads use a pool of connections; writes take turns on ONE connection of their own, so
  // per-connection settings hold for every write: `synchronous = NORMAL` syncs the WAL at
  // checkpoints rather than at every commit. A commit still survives the process being
  // killed (it is in the WAL file); only a power cut can lose the last few.
  const open = (connections: number, pageCacheKib?: number) =>
    path ? createStatementCachingClient(path, { timeout: config.timeout, maxConnections: connections, pageCacheKib }) : createClient({ ...config, concurrency: connections });
  // A read connection's page cache starts empty again after any commit (SQLite discards it
  // when the database changed), so most of a large one would only hold memory: 1 MB each.
  let current = open(READ_CONNECTIONS, READ_PAGE_CACHE_KIB);
  const openWriter = () => {
    const client = open(1);
    const ready = client
      .execute('PRAGMA synchronous = NORMAL')
      .then(() => (checkpointer ? client.execute(`PRAGMA wal_autocheckpoint = ${checkpointer.autocheckpointPages()}`) : null))
      .then(() => client);
    return { client, ready };
  };
  let writer = openWriter();

  const retire = (failed: Client) => {
    if (current === failed) current = open(READ_CONNECTIONS, READ_PAGE_CACHE_KIB);
    else if (writer.client === failed) writer = openWriter();
    else return;
    // Work already under way on the old client finishes first; none outlives a second.
    setTimeout(() => failed.close(), 5_000).unref();
  };
  const watch = <T>(client: Client, work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      if (isBusyError(error)) retire(client);
      throw error;
    });
  const exclusive = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const release = await queue.acquire();
    try {
      const client = await writer.ready;
      return await watch(client, work(client));
    } finally {
      release();
    }
  };

  // Without the worker the writer checkpoints itself again, at SQLite's default size.
  checkpointer?.onFailure(() => {
    void exclusive((client) => client.execute(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`)).catch(() => undefined);
  });

  return {
    execute(stmtOrSql: InStatement | string, args?: InArgs) {
      const stmt: InStatement = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
      const sql = typeof stmt === 'string' ? stmt : stmt.sql;
      return isReadOnly(sql) ? current.execute(stmt) : exclusive((client) => client.execute(stmt));
    },
    batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) {
      return mode === 'read' ? current.batch(stmts, mode) : exclusive((client) => client.batch(stmts, mode));
    },
    migrate(stmts: InStatement[]) {
      return exclusive((client) => client.migrate(stmts));
    },
    async transaction(mode?: TransactionMode) {
      if (mode === 'read') return current.transaction(mode);
      const release = await queue.acquire();
      try {
        const client = await writer.ready;
        return turnHolding(await watch(client, client.transaction(mode)), release, (work) => watch(client, work));
      } catch (error) {
        release();
        throw error;
      }
    },
    executeMultiple(sql: string) {
      return exclusive((client) => client.executeMultiple(sql));
    },
    sync() {
      return current.sync();
    },
    close() {
      current.close();
      writer.client.close();
      checkpointer?.release();
    },
    reconnect() {
      current.reconnect();
      writer.client.reconnect();
    },
    get closed() {
      return current.closed;
    },
    protocol: 'file',
  } as Client;
}

/** A transaction that gives the process's write turn back when it ends, however it ends. */
function turnHolding(tx: Transaction, release: () => void, watch: <T>(work: Promise<T>) => Promise<T>): Transaction {
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      release();
    }
  };
  return {
    execute: (stmt: InStatement) => watch(tx.execute(stmt)),
    batch: (stmts: InStatement[]) => watch(tx.batch(stmts)),
    executeMultiple: (sql: string) => watch(tx.executeMultiple(sql)),
    async commit() {
      try {
        await watch(tx.commit());
      } finally {
        end();
      }
    },
    async rollback() {
      try {
        await tx.rollback();
      } finally {
        end();
      }
    },
    close() {
      try {
        tx.close();
      } finally {
        end();
      }
    },
    get closed() {
      return tx.closed;
    },
  } as Transaction;
}

// One queue per database file and process, even for several clients (or bundled copies of this module).
const queues = ((globalThis as { __sqliteWriteQueues?: Map<string, WriteQueue> }).__sqliteWriteQueues ??= new Map());
function writeQueueFor(url: string, timeoutMs: number): WriteQueue {
  const key = resolve(url.replace(/^file:/, '').replace(/\?.*$/, ''));
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = new WriteQueue(timeoutMs)));
  return queue;
}

/** First come, first served; a write that cannot get its turn in time fails as busy (the API answers 503). */
class WriteQueue {
  #held = false;
  #waiting: Array<{ grant: () => void }> = [];

  constructor(private readonly timeoutMs: number) {}

  acquire(): Promise<() => void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.#releaser());
        },
      };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((w) => w !== waiter);
        reject(new LibsqlError(`SQLITE_BUSY: no write turn within ${this.timeoutMs} ms`, 'SQLITE_BUSY'));
      }, this.timeoutMs);
      this.#waiting.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#held = false;
    };
  }
}

/** The library's default pool size. */
const READ_CONNECTIONS = 20;
/** Page cache of each read connection (KiB). */
const READ_PAGE_CACHE_KIB = 1024;

/**
 * The file a plain `file:` URL names; null for anything else (in-memory, query options),
 * which keeps the library's own client.
 */
function filePath(url: string): string | null {
  const path = url.replace(/^file:(\/\/(localhost)?(?=\/))?/, '');
  if (!url.startsWith('file:') || path === '' || path.includes(':memory:') || /[?#%]/.test(path)) return null;
  return path;
}

/** Plain reads never take the write lock in WAL mode, so they need no turn. */
function isReadOnly(sql: string): boolean {
  return /^\s*select\b/i.test(sql);
}

function isBusyError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LibsqlError && /BUSY|LOCKED/.test(`${e.code} ${e.extendedCode ?? ''}`)) return true;
    if (e instanceof Error && /SQLITE_BUSY|database is locked/i.test(e.message)) return true;
  }
  return false;
}
