import type { Client, InArgs, InStatement, Transaction, TransactionMode } from '@libsql/client';

export type Statement = InStatement;
import { drizzle } from 'drizzle-orm/libsql';
import { schema, type Database } from '@/db/client';

/**
 * What a database over a network would have cost: each call a request, each write's lock
 * time. A remote libSQL server (sqld, Turso over HTTP) answers every `execute`, `batch` and
 * step of an interactive transaction as a request of its own, and a write transaction holds
 * the lock from its BEGIN to its COMMIT, round trips included; a write batch holds it only
 * while the server runs it.
 */
export type NetworkLog = {
  /** Requests sent, reads included. */
  requests: number;
  /** Requests of writes: write batches, writing statements, and every step of a write transaction. */
  writeRequests: number;
  /** Each write's lock: from the server starting it to its commit (or rollback), in ms. */
  locks: Array<{ ms: number; networkMs: number; requests: number }>;
};

const pause = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
const isRead = (stmt: InStatement) => /^\s*(select|with)\b/i.test(typeof stmt === 'string' ? stmt : stmt.sql);

/**
 * The same database behind a simulated network: `latencyMs` per request (half on the way
 * there, half on the way back), and every request and lock counted in `log`.
 */
export function overNetwork(database: Database, latencyMs: number): { database: Database; log: NetworkLog } {
  const inner = database.$client;
  const log: NetworkLog = { requests: 0, writeRequests: 0, locks: [] };
  const trip = async <T>(write: boolean, work: () => Promise<T>): Promise<T> => {
    log.requests += 1;
    if (write) log.writeRequests += 1;
    await pause(latencyMs / 2);
    try {
      return await work();
    } finally {
      await pause(latencyMs / 2);
    }
  };
  /** A write that holds the lock only while the server runs it. */
  const locked = async <T>(work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      log.locks.push({ ms: performance.now() - start, networkMs: 0, requests: 1 });
    }
  };

  const wrapTransaction = (tx: Transaction, mode: TransactionMode | undefined, began: number, beginReturnMs: number): Transaction => {
    const write = mode !== 'read';
    let requests = 1;
    let networkMs = beginReturnMs;
    let ended = false;
    const step = async <T>(work: () => Promise<T>, last = false): Promise<T> => {
      requests += 1;
      const sent = performance.now();
      log.requests += 1;
      if (write) log.writeRequests += 1;
      await pause(latencyMs / 2);
      const arrived = performance.now();
      try {
        return await work();
      } finally {
        const done = performance.now();
        if (last && !ended && write) {
          ended = true;
          log.locks.push({ ms: done - began, networkMs: networkMs + (arrived - sent), requests });
        }
        networkMs += arrived - sent;
        await pause(latencyMs / 2);
        networkMs += performance.now() - done;
      }
    };
    return {
      execute: (stmt: InStatement) => step(() => tx.execute(stmt)),
      batch: (stmts: InStatement[]) => step(() => tx.batch(stmts)),
      executeMultiple: (sql: string) => step(() => tx.executeMultiple(sql)),
      commit: () => step(() => tx.commit(), true),
      rollback: () => step(() => tx.rollback(), true),
      close() {
        if (!ended && write && !tx.closed) {
          ended = true;
          log.locks.push({ ms: performance.now() - began, networkMs, requests });
        }
        tx.close();
      },
      get closed() {
        return tx.closed;
      },
    } as Transaction;
  };

  const client = {
    execute(stmtOrSql: InStatement | string, args?: InArgs) {
      const stmt: InStatement = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
      return isRead(stmt) ? trip(false, () => inner.execute(stmt)) : trip(true, () => locked(() => inner.execute(stmt)));
    },
    batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) {
      return mode === 'read' ? trip(false, () => inner.batch(stmts, mode)) : trip(true, () => locked(() => inner.batch(stmts, mode)));
    },
    async transaction(mode?: TransactionMode) {
      let began = 0;
      let opened = 0;
      const tx = await trip(mode !== 'read', async () => {
        began = performance.now();
        const opening = await inner.transaction(mode);
        opened = performance.now();
        return opening;
      });
      return wrapTransaction(tx, mode, began, performance.now() - opened);
    },
    migrate: (stmts: InStatement[]) => trip(true, () => locked(() => inner.migrate(stmts))),
    executeMultiple: (sql: string) => trip(true, () => locked(() => inner.executeMultiple(sql))),
    sync: () => inner.sync(),
    close: () => inner.close(),
    reconnect: () => inner.reconnect(),
    get closed() {
      return inner.closed;
    },
    protocol: 'http',
  } as unknown as Client;
  return { database: drizzle({ client, schema, casing: 'snake_case' }) as Database, log };
}

/** The longest lock, and the part of it spent waiting on the network. */
export function longestLock(log: NetworkLog): { ms: number; networkMs: number; requests: number } {
  return log.locks.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, networkMs: 0, requests: 0 });
}

/** The same database, whose write batches fail where `fails` says: a connection lost, or an instance that died. */
export function failingWrites(database: Database, fails: (statements: InStatement[], n: number) => boolean): Database {
  const inner = database.$client;
  let writes = 0;
  const client = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'batch')
        return (statements: InStatement[], mode?: TransactionMode) =>
          mode === 'write' && fails(statements, ++writes) ? Promise.reject(new Error('connection lost')) : target.batch(statements, mode);
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return drizzle({ client, schema, casing: 'snake_case' }) as Database;
}
