import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import Database from 'libsql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, withoutWaiting, type Database as Db } from '@/db/client';
import { storageFaultOf } from '@/db/faults';

// The driver under another process's lock and under storage faults, with real parts:
// another process holding the lock, a real full file system (a small tmpfs), and files
// made immutable (chattr +i), which is what makes SQLite's -shm mapping unwritable.

const opened: Db[] = [];
const scratch: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const database of opened.splice(0)) database.$client.close();
  for (const dir of scratch.splice(0)) removeDir(dir);
});

/**
 * A closed database's checkpoint worker stops on its own thread a moment later, so a file
 * can still appear in the folder while it is removed (ENOTEMPTY, seen once in CI): Node
 * retries the removal then.
 */
const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });

async function freshDatabase(dir: string, busyTimeoutMs: number) {
  const path = join(dir, 'site.db');
  const url = `file:${path}`;
  const database = openDatabase({ url, busyTimeoutMs });
  opened.push(database);
  await database.run(sql`CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  return { path, database };
}

const insert = (database: Db, v: string) => database.run(sql`INSERT INTO probe (v) VALUES (${v})`);
const count = async (database: Db, like = '%') =>
  Number((await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe WHERE v LIKE ${like}`))[0]!.n);
const faultOf = async (work: Promise<unknown>) =>
  storageFaultOf(
    await work.then(
      () => null,
      (e: unknown) => e,
    ),
  );

/** Another process: takes the write lock (BEGIN EXCLUSIVE), says "locked", commits when told. */
async function lockFromAnotherProcess(path: string) {
  const source = `
    const Database = require('node:module').createRequire(process.cwd() + '/package.json')('libsql');
    const db = new Database(${JSON.stringify(path)}, { timeout: 0 });
    db.exec('BEGIN EXCLUSIVE');
    db.exec("INSERT INTO probe (v) VALUES ('other-process')");
    console.log('locked');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); console.log('released'); process.exit(0); });`;
  const child: ChildProcess = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => line === word && resolve());
      child.once('exit', (code) => reject(new Error(`the locking process exited (${code}) before saying ${word}`)));
    });
  await said('locked');
  return {
    async release() {
      const released = said('released');
      child.stdin!.write('release\n');
      await released;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

/** The longest the event loop went without running a 5 ms timer, while it was watched. */
function watchEventLoop() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(timer);
    return longest;
  };
}

async function slowestRead(database: Db, times = 20): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await count(database);
    slowest = Math.max(slowest, performance.now() - t0);
  }
  return slowest;
}

/** Settles after `turns` turns of the event loop (each a macrotask): never while the loop is blocked. */
async function loopTurns(turns: number) {
  for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('a write lock held by another process', () => {
  it('leaves reads at normal speed and the event loop free; writes wait, then fail as busy, or go through when it goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-lock-'));
    scratch.push(dir);
    const { path, database } = await freshDatabase(dir, 1_000);
    await insert(database, 'before');
    const baseline = await slowestRead(database);
    const lock = await lockFromAnotherProcess(path);
    try {
      // Reads need no lock in WAL mode: as fast as before (generous bounds for a busy machine).
      expect(await slowestRead(database)).toBeLessThan(Math.max(100, baseline * 10));

      // A write that may not wait (a read's rate-limit counter) fails at once.
      const t0 = performance.now();
      expect(await faultOf(withoutWaiting(database).run(sql`INSERT INTO probe (v) VALUES ('impatient')`))).toBe('busy');
      expect(performance.now() - t0).toBeLessThan(100);

      // A write waits up to the busy timeout without blocking the process, then fails as busy.
      const stopWatching = watchEventLoop();
      const t1 = Date.now();
      const reads = (async () => slowestRead(database, 5))();
      expect(await faultOf(insert(database, 'timed-out'))).toBe('busy');
      const longestStall = stopWatching();
      expect(Date.now() - t1).toBeGreaterThanOrEqual(900);
      expect(Date.now() - t1).toBeLessThan(5_000);
      expect(longestStall).toBeLessThan(300);
      expect(await reads).toBeLessThan(300);

      // A write transaction started under the lock goes through once the lock goes.
      const during = database.transaction(async (tx) => {
        await tx.run(sql`INSERT INTO probe (v) VALUES ('during-1')`);
        await tx.run(sql`INSERT INTO probe (v) VALUES ('during-2')`);
      });
      let settled = false;
      void during.finally(() => (settled = true)).catch(() => undefined);
      await loopTurns(5); // the process keeps turning while the transaction waits for its BEGIN
      expect(settled).toBe(false);
      await lock.release();
      await during;
    } finally {
      lock.kill();
    }
    // Nothing half-done stays behind: later transactions commit (no "statements in progress").
    for (let i = 0; i < 3; i++) await database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES (${`after-${i}`})`));
    expect(await count(database, 'during-%')).toBe(2);
    expect(await count(database, 'after-%')).toBe(3);
    expect(await count(database, 'other-process')).toBe(1);
    expect(await count(database, 'timed-out')).toBe(0);
    expect(await count(database, 'impatient')).toBe(0);
    // The impatient write counts again once the lock is gone.
    await withoutWaiting(database).run(sql`INSERT INTO probe (v) VALUES ('impatient')`);
    expect(await count(database, 'impatient')).toBe(1);
  });
});

const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

describe.skipIf(!canMount)('a full disk (a 3 MB tmpfs)', () => {
  it('fails writes as "full" with one log line, keeps reads, loses nothing acknowledged, and writes again once space is freed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir]);
    expect(mounted.status, String(mounted.stderr)).toBe(0);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { database } = await freshDatabase(dir, 500);
      // Space to free later, as an operator would.
      writeFileSync(join(dir, 'ballast'), Buffer.alloc(1024 * 1024, 1));
      const acknowledged: string[] = [];
      let fault: string | null = null;
      for (let i = 0; i < 1_000 && !fault; i++) {
        const v = `row-${i}-${'x'.repeat(4000)}`;
        fault = await faultOf(insert(database, v));
        if (!fault) acknowledged.push(v);
      }
      expect(fault).toBe('full');
      expect(acknowledged.length).toBeGreaterThan(10);
      // Every further write fails the same way, quickly, and the log says so once.
      for (let i = 0; i < 20; i++) expect(await faultOf(insert(database, `more-${i}-${'y'.repeat(4000)}`))).toBe('full');
      expect(await faultOf(database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES (${'z'.repeat(8000)})`)))).toBe(
        'full',
      );
      // Batches asked for together commit together (group commit): they fail together, none written.
      const grouped = (prefix: string) =>
        Array.from({ length: 5 }, (_, i) =>
          database.$client.batch([{ sql: 'INSERT INTO probe (v) VALUES (?)', args: [`${prefix}-${i}-${'g'.repeat(4000)}`] }], 'write'),
        );
      expect(await Promise.all(grouped('grouped').map(faultOf))).toEqual(Array(5).fill('full'));
      expect(await count(database, 'grouped-%')).toBe(0);
      const faultLines = log.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('storage fault (full)'));
      expect(faultLines).toHaveLength(1);
      expect(log.mock.calls.flat().some((arg) => arg instanceof Error)).toBe(false); // no stack traces
      // Reads go on.
      expect(await count(database, 'row-%')).toBe(acknowledged.length);

      rmSync(join(dir, 'ballast'));
      await insert(database, 'after-space-freed');
      // The log says so at a write a moment after the last failure.
      await vi.waitFor(
        async () => {
          await insert(database, 'after-space-freed');
          expect(log.mock.calls.map((c) => String(c[0])).some((line) => line.includes('storage fault (full) cleared'))).toBe(true);
        },
        { timeout: 10_000, interval: 300 },
      );
      expect(await count(database, 'row-%')).toBe(acknowledged.length);
      expect(await count(database, 'after-space-freed')).toBeGreaterThanOrEqual(2);
      await Promise.all(grouped('grouped-after'));
      expect(await count(database, 'grouped-after-%')).toBe(5);
    } finally {
      for (const database of opened.splice(0)) database.$client.close();
      spawnSync('umount', ['-l', dir]);
      removeDir(dir);
    }
  });
});

/** chattr +i works here (root, a file system with the flag): the files become unwritable, even for root. */
function canMakeImmutable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'sd-chattr-'));
  const probe = join(dir, 'probe');
  writeFileSync(probe, '');
  const ok = spawnSync('chattr', ['+i', probe]).status === 0;
  spawnSync('chattr', ['-i', probe]);
  rmSync(dir, { recursive: true });
  return ok;
}

describe.skipIf(!canMakeImmutable())('read-only database files (chattr +i)', () => {
  it('fails writes as "readonly" instead of crashing (SIGBUS), keeps reads, and writes again once the files are writable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-readonly-'));
    const { path, database } = await freshDatabase(dir, 500);
    const files = [path, `${path}-wal`, `${path}-shm`];
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 50; i++) await insert(database, `row-${i}`);
      // Everything checkpointed: the next write restarts the WAL, which begins by writing
      // the WAL index (-shm) through its mapping. Its pages written out and clean, the
      // kernel must be asked again before that write, and for an immutable file it answers
      // SIGBUS: what killed the process before.
      const other = new Database(path, { timeout: 1_000 });
      other.exec('PRAGMA wal_checkpoint(PASSIVE)');
      other.close();
      expect(spawnSync('sync', files).status).toBe(0);
      expect(spawnSync('chattr', ['+i', ...files]).status).toBe(0);

      expect(await faultOf(insert(database, 'refused'))).toBe('readonly');
      expect(await faultOf(database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES ('refused')`)))).toBe('readonly');
      expect(await count(database, 'row-%')).toBe(50);
      // What the prepared reads (credentials) ask when they start, so they start now too.
      expect(String((await database.$client.execute('PRAGMA database_list')).rows[0]!.file)).toBe(path);
      expect(log.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('storage fault (readonly)'))).toHaveLength(1);

      expect(spawnSync('chattr', ['-i', ...files]).status).toBe(0);
      await insert(database, 'after');
      expect(await count(database, 'row-%')).toBe(50);
      expect(await count(database, 'after')).toBe(1);
      expect(await count(database, 'refused')).toBe(0);
    } finally {
      spawnSync('chattr', ['-i', ...files]);
      for (const database of opened.splice(0)) database.$client.close();
      removeDir(dir);
    }
  });
});

describe.skipIf(!canMakeImmutable())('files that turn read-only in the middle of a transaction', () => {
  it('roll the transaction back at COMMIT instead of writing to the unwritable mapping (SIGBUS)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-readonly-tx-'));
    const { path, database } = await freshDatabase(dir, 500);
    const files = [path, `${path}-wal`, `${path}-shm`];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 20; i++) await insert(database, `row-${i}`);
      const other = new Database(path, { timeout: 1_000 });
      other.exec('PRAGMA wal_checkpoint(PASSIVE)');
      other.close();
      const failed = await faultOf(
        database.transaction(async (tx) => {
          await tx.run(sql`INSERT INTO probe (v) VALUES ('in-flight')`);
          // The files turn read-only while the transaction is under way (it awaits here).
          expect(spawnSync('sync', files).status).toBe(0);
          expect(spawnSync('chattr', ['+i', ...files]).status).toBe(0);
          await tx.run(sql`INSERT INTO probe (v) VALUES ('in-flight')`);
        }),
      );
      expect(failed).toBe('readonly');
      expect(await count(database, 'row-%')).toBe(20);
      expect(await count(database, 'in-flight')).toBe(0);

      expect(spawnSync('chattr', ['-i', ...files]).status).toBe(0);
      await database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES ('after')`));
      expect(await count(database, 'after')).toBe(1);
      expect(await count(database, 'in-flight')).toBe(0);
    } finally {
      spawnSync('chattr', ['-i', ...files]);
      for (const database of opened.splice(0)) database.$client.close();
      removeDir(dir);
    }
  });
});

describe.skipIf(!canMakeImmutable())('I/O errors (the WAL file refuses writes)', () => {
  it('fails writes as "io", keeps reads, and writes again once the file takes writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-ioerr-'));
    const { path, database } = await freshDatabase(dir, 500);
    const wal = `${path}-wal`;
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 20; i++) await insert(database, `row-${i}`);
      // The -shm file stays writable: SQLite gets as far as writing the WAL, and the
      // operating system refuses that write (EPERM): SQLITE_IOERR_WRITE.
      expect(spawnSync('chattr', ['+i', wal]).status).toBe(0);
      const faults = [];
      for (let i = 0; i < 5; i++) faults.push(await faultOf(insert(database, 'refused')));
      // The connection that met the error is replaced; the new one finds the WAL file
      // unwritable when it opens, and SQLite calls that read-only.
      expect(faults[0]).toBe('io');
      for (const fault of faults.slice(1)) expect(['io', 'readonly']).toContain(fault);
      expect(await count(database, 'row-%')).toBe(20);
      expect(log.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('storage fault (io)'))).toHaveLength(1);

      expect(spawnSync('chattr', ['-i', wal]).status).toBe(0);
      await insert(database, 'after');
      expect(await count(database, 'row-%')).toBe(20);
      expect(await count(database, 'after')).toBe(1);
      expect(await count(database, 'refused')).toBe(0);
    } finally {
      spawnSync('chattr', ['-i', wal]);
      for (const database of opened.splice(0)) database.$client.close();
      removeDir(dir);
    }
  });
});

describe('storageFaultOf', () => {
  it('finds the fault behind the wrappers, by extended code, base code, message or Node error code', () => {
    const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });
    const wrapped = (cause: unknown) => new Error('Failed query: INSERT …', { cause });
    expect(storageFaultOf(wrapped(sqlite('SQLITE_IOERR_WRITE', 'disk I/O error')))).toBe('io');
    expect(storageFaultOf(wrapped(wrapped(sqlite('SQLITE_FULL', 'database or disk is full'))))).toBe('full');
    expect(storageFaultOf(sqlite('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database'))).toBe('readonly');
    expect(storageFaultOf(sqlite('SQLITE_BUSY_SNAPSHOT', 'database is locked'))).toBe('busy');
    expect(storageFaultOf(sqlite('SQLITE_CANTOPEN', 'unable to open database file'))).toBe('cantopen');
    expect(storageFaultOf(sqlite('SQLITE_CORRUPT', 'database disk image is malformed'))).toBe('corrupt');
    expect(storageFaultOf(Object.assign(new Error('EROFS: read-only file system, mkdir'), { code: 'EROFS' }))).toBe('readonly');
    expect(storageFaultOf(new Error('database or disk is full'))).toBe('full');
    // Not storage: a constraint, a bug, nothing at all.
    expect(storageFaultOf(wrapped(sqlite('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: probe.v')))).toBeNull();
    expect(storageFaultOf(new TypeError('x is undefined'))).toBeNull();
    expect(storageFaultOf(undefined)).toBeNull();
  });
});

/** The database in a process of its own (test/support/storage-child.ts): a SIGBUS ends it, not the test runner. */
async function databaseProcess(url: string) {
  const root = new URL('..', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
      join(root, 'test', 'support', 'storage-child.ts'),
      url,
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') } },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`exited (${signal ?? code})`)));
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await Promise.race([answers.next().then((r) => (r.done ? null : r.value)), exited]);
    return line ?? (await exited);
  };
  expect(await next()).toBe('ready');
  return {
    ask: async (command: 'write' | 'write-tx' | 'read') => {
      child.stdin!.write(`${command}\n`);
      return next();
    },
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
  };
}

describe.skipIf(!canMakeImmutable())('files that turn read-only right after a write', () => {
  it(
    'keep the process alive: reads go on, writes fail as "readonly", and writes resume once the files are writable',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sd-readonly-flip-'));
      const path = join(dir, 'site.db');
      const files = [path, `${path}-wal`, `${path}-shm`];
      const server = await databaseProcess(`file:${path}`);
      try {
        // Each round: a write commits, and the files turn immutable at once (well inside the
        // checkpoint worker's 250 ms). The next read used to note its place in the -shm
        // mapping, a write into an unwritable page: SIGBUS, the process gone without a word.
        for (let round = 1; round <= 5; round++) {
          expect(await server.ask(round % 2 ? 'write' : 'write-tx')).toBe('ok');
          expect(spawnSync('chattr', ['+i', ...files]).status).toBe(0);
          expect(await server.ask('read')).toBe(`read ${round}`);
          expect(await server.ask('write')).toBe('fault readonly');
          expect(await server.ask('read')).toBe(`read ${round}`);
          expect(spawnSync('chattr', ['-i', ...files]).status).toBe(0);
        }
        expect(await server.ask('write')).toBe('ok');
        expect(await server.ask('read')).toBe('read 6');
        expect(server.stderr()).toContain('storage fault (readonly)');
      } finally {
        spawnSync('chattr', ['-i', ...files]);
        server.kill();
        removeDir(dir);
      }
    },
  );
});
