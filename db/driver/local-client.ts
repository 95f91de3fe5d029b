import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'libsql';
import {
  createClient,
  LibsqlError,
  type Client,
  type Config,
  type InArgs,
  type InStatement,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from '@libsql/client';
import { checkpointerFor, DEFAULT_AUTOCHECKPOINT_PAGES } from './checkpointer';
import { reportStorageFault, reportStorageRecovered, storageFaultActive, storageFaultOf } from '../faults';
import { createStatementCachingClient } from './statement-cache';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './statement-time-limit';
import { logDatabase } from '../log';
import { processSlot } from '@/lib/process-state';

/** The local client, and a view of it whose writes never wait for another process's lock. */
export type LocalClient = Client & { impatient: Client };

/**
 * A libSQL client for a local SQLite file that is safe under concurrent requests, other
 * processes holding the lock, and storage faults.
 *
 * The driver is synchronous: SQLite's own busy timeout would wait for another process's
 * lock with the event loop blocked, every request of the process frozen with it. So no
 * connection here waits inside SQLite for a writer. The writer's busy timeout is 0; a write
 * that finds the lock taken is tried again after a short jittered pause (setTimeout: the
 * process keeps serving), until DATABASE_BUSY_TIMEOUT_MS has passed, and then fails as
 * busy (the API answers 503). Only whole units are tried again: a statement on its own,
 * a batch (rolled back whole when it fails), or the BEGIN IMMEDIATE of a transaction —
 * every write transaction takes the lock at its start, so it never meets a busy lock
 * half-way. Reads in WAL mode need no lock at all.
 *
 * The writes of one process take turns in an async queue (bounded by the same timeout):
 * two write transactions of ONE process interleaving at their awaits would otherwise
 * wait on each other for nothing.
 *
 * A statement that failed with SQLITE_BUSY stays active in the driver until it runs again
 * (the statement cache keeps it for the retry, which resets it) or is garbage-collected;
 * a connection with one fails every COMMIT ("SQL statements in progress"). So a client
 * whose write fails for good is replaced with a fresh one, and so is one that met any
 * other storage fault (full disk, read-only files, I/O error): the next write opens a new
 * connection, which is how service resumes by itself once the fault clears.
 *
 * Read-only files need more: SQLite writes to the WAL index (the -shm file) through a
 * shared memory mapping, and when the file can no longer be written (an immutable file, a
 * file system gone read-only) such a write is a SIGBUS that kills the process. So before
 * each write the -shm file is checked (one access(2) call) and the write fails as
 * read-only instead; the checkpoint worker does the same. Readers write there too: the
 * first read after a commit notes the new end of the WAL in a read mark. So the writer
 * notes it itself, right after each commit (markForReaders), while the file is known to
 * be writable; every later read, of any connection or process, finds the mark and writes
 * nothing, and reads go on while the files are read-only.
 */
export function createLocalClient(
  config: Config & { timeout: number; statementTimeoutMs?: number; checkpointIntervalMs?: number },
): LocalClient {
  // Even at 0, the writes of this process take turns: each may wait a moment for the one before.
  const timeoutMs = Math.max(config.timeout, 50);
  const queue = writeQueueFor(config.url);
  const path = filePath(config.url);
  const shm = path ? `${path}-shm` : null;
  // WAL checkpoints run on a worker thread of their own (see checkpointer.ts).
  const checkpointer = path ? checkpointerFor(path, { intervalMs: config.checkpointIntervalMs }) : null;
  // Reads use a pool of connections; writes take turns on ONE connection of their own, so
  // per-connection settings hold for every write: `synchronous = NORMAL` syncs the WAL at
  // checkpoints rather than at every commit. A commit still survives the process being
  // killed (it is in the WAL file); only a power cut can lose the last few.
  const open = (connections: number, timeout: number, pageCacheKib?: number, statementTimeoutMs?: number) =>
    path
      ? createStatementCachingClient(path, { timeout, maxConnections: connections, pageCacheKib, statementTimeoutMs })
      : createClient({ ...config, concurrency: connections });
  // A read connection's page cache starts empty again after any commit (SQLite discards it
  // when the database changed), so most of a large one would only hold memory: 1 MB each.
  // Readers do not wait inside SQLite either: its rare reader waits (another process
  // recovering the WAL, or holding the file in exclusive locking mode) are retried by read().
  // Reads have a time limit (statement-time-limit.ts); writes, which hold the lock, run to their end.
  const openReaders = () => open(READ_CONNECTIONS, 0, READ_PAGE_CACHE_KIB, config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  let current = openReaders();
  if (path) ensureWal(path);
  // Opened on first use (and again after a fault): a file that cannot be opened fails
  // that write, not the start of the process.
  let writer: { client: Client; ready: Promise<Client> } | null = null;
  const openWriter = () => {
    const client = open(1, 0);
    const ready = client
      .execute('PRAGMA synchronous = NORMAL')
      .then(() => (checkpointer ? client.execute(`PRAGMA wal_autocheckpoint = ${checkpointer.autocheckpointPages()}`) : null))
      .then(() => client);
    return { client, ready };
  };

  const retire = (failed: Client) => {
    if (current === failed) {
      try {
        current = openReaders();
      } catch {
        return; // cannot open the file now: keep the old pool, the next failure tries again
      }
    } else if (writer?.client === failed) writer = null;
    else return;
    // Work already under way on the old client finishes first; none outlives a second.
    setTimeout(() => failed.close(), 5_000).unref();
  };
  /** A failure of work under way (a transaction's statement): no retry, but the fault counts. */
  const watch = <T>(client: Client, work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      const fault = storageFaultOf(error);
      if (fault) {
        // A read past its time limit says nothing about the connections.
        if (fault !== 'timeout') retire(client);
        reportStorageFault(fault, error);
      }
      throw error;
    });

  /** Fails as read-only, before SQLite touches the -shm mapping, when that file cannot be written. */
  const checkWritable = () => {
    if (!shm) return;
    try {
      accessSync(shm, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return; // no connection has created it yet: nothing is mapped
      throw new LibsqlError(`the database's -shm file is not writable (${code})`, 'SQLITE_READONLY', 'SQLITE_READONLY');
    }
  };

  /**
   * A transaction writes its pages to the WAL, and the -shm file with them, at COMMIT; its
   * statements before that await, so the files may have turned read-only since BEGIN.
   */
  const beforeCommit = () => {
    try {
      checkWritable();
    } catch (error) {
      reportStorageFault('readonly', error);
      throw error;
    }
  };

  /**
   * Runs a write unit on the writer with this process's turn held, trying it again while
   * another process holds the lock. Impatient units (counting reads) never wait for it.
   */
  const underLock = async <T>(work: (client: Client) => Promise<T>, deadline: number, how: WriteHow, completes = true): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      let client: Client | undefined;
      try {
        checkWritable();
        writer ??= openWriter();
        client = writer.client;
        await writer.ready;
        const result = await work(client);
        if (completes) {
          await markForReaders(client);
          if (storageFaultActive()) reportStorageRecovered();
        }
        return result;
      } catch (error) {
        const fault = storageFaultOf(error);
        if (!fault) throw error;
        const now = Date.now();
        if (fault === 'busy' && how.impatient) {
          queue.impatientPauseUntil = now + IMPATIENT_PAUSE_MS;
        } else if (fault === 'busy' && how.retry !== false && now < deadline) {
          await queue.waitForLock(Math.min(backoffMs(attempt), deadline - now));
          continue;
        }
        if (client) retire(client);
        if (!how.impatient) reportStorageFault(fault, error);
        throw error;
      }
    }
  };
  const exclusive = async <T>(work: (client: Client) => Promise<T>, how: WriteHow): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    const release = await queue.acquire(deadline, how.impatient === true);
    try {
      return await underLock(work, deadline, how);
    } finally {
      release();
    }
  };

  /** A read; one that meets a lock (SQLite's rare reader waits) is tried again without blocking. */
  const read = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const client = current;
      try {
        return await work(client);
      } catch (error) {
        const fault = storageFaultOf(error);
        if (!fault) throw error;
        const now = Date.now();
        if (fault === 'busy' && now < deadline) {
          await new Promise((r) => setTimeout(r, Math.min(backoffMs(attempt), deadline - now)));
          continue;
        }
        if (fault !== 'timeout') retire(client);
        reportStorageFault(fault, error);
        throw error;
      }
    }
  };

  // Without the worker the writer checkpoints itself again, at SQLite's default size.
  checkpointer?.onFailure(() => {
    void exclusive((client) => client.execute(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`), {}).catch(() => undefined);
  });

  /**
   * Group commit. Write batches asked for in the same turn of the event loop commit as one
   * transaction, each inside a savepoint of its own: a commit's fixed cost (taking the lock,
   * writing the WAL's frames and index) is paid once for the group, and pages that several
   * batches touch (the last page of a table, of a time-ordered index) are written once.
   * Each batch still succeeds or fails whole: a statement that fails rolls back its own
   * batch only, and that batch alone is refused, with its error. A storage fault (or
   * anything that ends the transaction) fails every batch of the group, none of which
   * committed; BEGIN IMMEDIATE meeting another process's lock is tried again for the
   * group, as for one batch. Every batch learns its outcome only after the COMMIT, so a
   * caller that reads after its batch failed (a taken Idempotency-Key) sees the others.
   */
  let gathering: Joined[] | null = null;
  const joinGroup = (stmts: Array<InStatement | [string, InArgs?]>) =>
    new Promise<ResultSet[]>((resolve, reject) => {
      if (gathering === null || gathering.length >= GROUP_MAX) {
        const group: Joined[] = (gathering = []);
        setImmediate(() => {
          if (gathering === group) gathering = null;
          void commitGroup(group);
        });
      }
      gathering.push({ stmts, resolve, reject });
    });
  const commitGroup = async (group: Joined[]) => {
    if (group.length === 1) {
      const [only] = group as [Joined];
      return exclusive((client) => client.batch(only.stmts, 'write'), {}).then(only.resolve, only.reject);
    }
    const outcomes: Array<{ results: ResultSet[] } | { error: unknown }> = [];
    try {
      await exclusive(async (client) => {
        outcomes.length = 0; // a group tried again (the lock was taken at BEGIN) starts over
        const tx = await client.transaction('write');
        try {
          for (const { stmts } of group) {
            await tx.execute('SAVEPOINT grouped');
            try {
              outcomes.push({ results: await tx.batch(stmts as InStatement[]) });
            } catch (error) {
              if (storageFaultOf(error) || tx.closed) throw error;
              await tx.execute('ROLLBACK TO grouped');
              outcomes.push({ error });
            }
            await tx.execute('RELEASE grouped');
          }
          checkWritable();
          await tx.commit();
        } catch (error) {
          tx.close();
          throw error;
        }
      }, {});
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i]!;
      if ('results' in outcome) resolve(outcome.results);
      else reject(outcome.error);
    });
  };

  const clientFor = (how: WriteHow): Client =>
    ({
      execute(stmtOrSql: InStatement | string, args?: InArgs) {
        const stmt: InStatement = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
        const sql = typeof stmt === 'string' ? stmt : stmt.sql;
        return isReadOnly(sql) ? read((client) => client.execute(stmt)) : exclusive((client) => client.execute(stmt), how);
      },
      batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) {
        if (mode === 'read') return watch(current, current.batch(stmts, mode));
        if (mode === 'write' && !how.impatient) return joinGroup(stmts);
        // a failed batch is rolled back whole, so it can be tried again whole
        return exclusive((client) => client.batch(stmts, mode), how);
      },
      migrate(stmts: InStatement[]) {
        return exclusive((client) => client.migrate(stmts), how);
      },
      async transaction(mode?: TransactionMode) {
        if (mode === 'read') {
          // A read transaction holds a read connection until it ends: a few stay for plain reads.
          const release = await readSlots.acquire(Date.now() + timeoutMs);
          try {
            let used = current;
            const tx = await read((client) => (used = client).transaction('read'));
            return slotHolding(tx, release, (work) => watch(used, work));
          } catch (error) {
            release();
            throw error;
          }
        }
        const deadline = Date.now() + timeoutMs;
        const release = await queue.acquire(deadline, how.impatient === true);
        try {
          // BEGIN IMMEDIATE whatever was asked: the lock is taken (or waited for) here, where
          // trying again is safe, never at the first write inside.
          const { client, tx } = await underLock(
            async (client) => ({ client, tx: await client.transaction('write') }),
            deadline,
            how,
            false,
          );
          return turnHolding(
            tx,
            release,
            (work) => watch(client, work),
            beforeCommit,
            () => markForReaders(client),
          );
        } catch (error) {
          release();
          throw error;
        }
      },
      executeMultiple(sql: string) {
        // several statements, each committed on its own: not safe to try again
        return exclusive((client) => client.executeMultiple(sql), { ...how, retry: false });
      },
      sync() {
        return current.sync();
      },
      close() {
        current.close();
        writer?.client.close();
        writer = null;
        checkpointer?.release();
      },
      reconnect() {
        current.reconnect();
        writer?.client.reconnect();
      },
      get closed() {
        return current.closed;
      },
      protocol: 'file',
    }) as Client;

  const readSlots = new Slots(READ_CONNECTIONS - PLAIN_READ_CONNECTIONS);
  const client = clientFor({}) as LocalClient;
  client.impatient = clientFor({ impatient: true });
  return client;
}

/** A write batch waiting for its group's commit. */
type Joined = { stmts: Array<InStatement | [string, InArgs?]>; resolve: (results: ResultSet[]) => void; reject: (error: unknown) => void };
/** Batches per group at most: a group holds the write turn while it runs. */
const GROUP_MAX = 64;

type WriteHow = {
  /** Fail at once as busy instead of waiting for another process's lock (or for the queue while it is locked). */
  impatient?: boolean;
  /** Try the unit again while the lock is taken (default: yes). */
  retry?: boolean;
};

/** Pauses between tries for a taken lock: 2, 4, 8 … ms up to 50, each jittered by up to half. */
function backoffMs(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MS, 2 ** (attempt + 1));
  return base / 2 + Math.random() * (base / 2);
}
const MAX_BACKOFF_MS = 50;
/**
 * After an impatient write met the lock, the next ones fail without trying for this long
 * (each try that fails replaces the writer connection: this bounds how often).
 */
const IMPATIENT_PAUSE_MS = 100;

/**
 * After a commit: one read on the writer's connection, which records the WAL's new end in
 * a read mark of the -shm file. Without it the next reader would, and a reader has no
 * access(2) check before it: when the file turned read-only in between (an operator, a
 * file system remounted read-only, moments after the last write of a busy server) that
 * write into the mapping was a SIGBUS. A read that finds a mark at the WAL's end writes
 * nothing. A failure here only means the next reader writes the mark itself.
 */
async function markForReaders(writer: Client): Promise<void> {
  await writer.execute(READ_MARK_SQL).catch(() => undefined);
}
const READ_MARK_SQL = 'SELECT 1 FROM sqlite_schema LIMIT 1';

/** How long opening a file that is not in WAL mode yet may wait for another process's lock to switch it. */
const WAL_SWITCH_WAIT_MS = 1_000;

/**
 * Everything above assumes WAL: readers beside the writer, no reader ever waiting inside
 * SQLite. A file in rollback-journal mode (a new one, or a copy made by VACUUM INTO or a
 * backup, started without `npm start`'s migration) breaks that: a reader holds a lock the
 * writer's COMMIT must wait for, and a reader waits, event loop blocked, for a writer of
 * its own process. So the file is switched when the client opens it, before this process
 * reads or writes it; for a file already in WAL it costs one PRAGMA read. Through SQLite,
 * never by opening the file directly: closing a descriptor of the file drops every POSIX lock
 * this process holds on it, SQLite's included, and another process could then take the WAL
 * for its own (the test suite corrupted a database that way). A file that cannot be
 * switched now (read-only, or locked past the wait) is served as it is, and said so.
 */
function ensureWal(path: string): void {
  let connection: Database.Database | undefined;
  try {
    connection = new Database(path, { timeout: WAL_SWITCH_WAIT_MS });
    const modeOf = (sql: string) => String((connection!.prepare(sql).raw(true).get() as unknown[] | undefined)?.[0] ?? '');
    if (modeOf('PRAGMA journal_mode') === 'wal') return;
    const mode = modeOf('PRAGMA journal_mode = WAL');
    if (mode !== 'wal') throw new Error(`SQLite answered journal_mode ${mode}`);
  } catch (error) {
    logDatabase(
      'warn',
      { code: (error as { code?: unknown }).code ?? null },
      `the database file is not in WAL mode and could not be switched now (${error instanceof Error ? error.message : String(error)}): writes may wait for readers`,
    );
  } finally {
    connection?.close();
  }
}

/** A transaction that gives the process's write turn back when it ends, however it ends. */
function turnHolding(
  tx: Transaction,
  release: () => void,
  watch: <T>(work: Promise<T>) => Promise<T>,
  beforeCommit: () => void,
  afterCommit: () => Promise<void>,
): Transaction {
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
        try {
          beforeCommit();
        } catch (error) {
          tx.close(); // rolls back, before the turn goes to the next write
          throw error;
        }
        await watch(tx.commit());
        await afterCommit();
        if (storageFaultActive()) reportStorageRecovered();
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

/** A read transaction that gives its slot back when it ends, however it ends. */
function slotHolding(tx: Transaction, release: () => void, watch: <T>(work: Promise<T>) => Promise<T>): Transaction {
  const ending = <T>(work: () => Promise<T> | T) => {
    try {
      const result = work();
      return result instanceof Promise ? result.finally(release) : (release(), result);
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    execute: (stmt: InStatement) => watch(tx.execute(stmt)),
    batch: (stmts: InStatement[]) => watch(tx.batch(stmts)),
    executeMultiple: (sql: string) => watch(tx.executeMultiple(sql)),
    commit: () => ending(() => tx.commit()),
    rollback: () => ending(() => tx.rollback()),
    close: () => ending(() => tx.close()),
    get closed() {
      return tx.closed;
    },
  } as Transaction;
}

/** At most `limit` holders at once, first come first served; a wait past its deadline fails as busy. */
class Slots {
  #free: number;
  #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  acquire(deadline: number): Promise<() => void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(this.#releaser());
      };
      const timer = setTimeout(
        () => {
          this.#waiting = this.#waiting.filter((w) => w !== grant);
          reject(busy('no read connection for a read transaction in time'));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiting.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}

// One queue per database file and process, even for several clients (or bundled copies of this module).
const queues = processSlot('sqliteWriteQueues', () => new Map<string, WriteQueue>());
function writeQueueFor(url: string): WriteQueue {
  const key = resolve(url.replace(/^file:/, '').replace(/\?.*$/, ''));
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = new WriteQueue()));
  return queue;
}

const busy = (why: string) => new LibsqlError(why, 'SQLITE_BUSY');

type Waiter = { impatient: boolean; grant: () => void; fail: (error: Error) => void };

/**
 * First come, first served; a write that cannot get its turn by its deadline fails as busy
 * (the API answers 503). While a write of this process waits for another process's lock
 * (or shortly after an impatient one met it), impatient writes fail at once rather than
 * queue behind it.
 */
class WriteQueue {
  #held = false;
  #waiting: Waiter[] = [];
  #waitingForLock = 0;
  impatientPauseUntil = 0;

  acquire(deadline: number, impatient: boolean): Promise<() => void> {
    if (impatient && (this.#waitingForLock > 0 || this.impatientPauseUntil > Date.now())) {
      return Promise.reject(busy('another process holds the write lock'));
    }
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        impatient,
        grant: () => {
          clearTimeout(timer);
          resolve(this.#releaser());
        },
        fail: (error) => {
          clearTimeout(timer);
          this.#waiting = this.#waiting.filter((w) => w !== waiter);
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.fail(busy('no write turn in time')), Math.max(0, deadline - Date.now()));
      this.#waiting.push(waiter);
    });
  }

  /** The turn holder pauses before trying the lock again; impatient writes waiting for a turn fail now. */
  async waitForLock(pauseMs: number): Promise<void> {
    this.#waitingForLock += 1;
    for (const waiter of this.#waiting.filter((w) => w.impatient)) waiter.fail(busy('another process holds the write lock'));
    try {
      await new Promise((r) => setTimeout(r, pauseMs));
    } finally {
      this.#waitingForLock -= 1;
    }
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
/** Read connections no read transaction may hold, so plain reads never wait behind them. */
const PLAIN_READ_CONNECTIONS = 4;
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

/**
 * Plain reads never take the write lock in WAL mode, so they need no turn. So is the list
 * of the files a connection has open (the prepared reads ask for it when they start),
 * which must not wait for a lock or fail with the writes (other PRAGMAs set or read the
 * writer's own settings, and go to it).
 */
function isReadOnly(sql: string): boolean {
  return /^\s*select\b/i.test(sql) || /^\s*pragma\s+database_list\s*;?\s*$/i.test(sql);
}
