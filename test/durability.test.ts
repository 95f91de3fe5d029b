import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, LibsqlError } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase, readTransaction, type Database as Db } from '@/db/client';
import { closeDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { Worker } from 'node:worker_threads';
import Database from 'libsql';
import { BACKSTOP_PAGES, CHECKPOINT_WORKER_SOURCE, checkpointerFor, DEFAULT_AUTOCHECKPOINT_PAGES } from '@/db/driver/checkpointer';
import { processSlot } from '@/lib/process-state';

const freshUrl = () => `file:${join(mkdtempSync(join(tmpdir(), 'sd-dur-')), 'site.db')}`;

async function freshDatabase(busyTimeoutMs?: number, checkpointIntervalMs?: number) {
  const url = freshUrl();
  const database = openDatabase({ url, busyTimeoutMs, checkpointIntervalMs });
  await migrateDatabase(database);
  await database.run(sql`CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  return { url, database };
}

describe('group commit: write batches asked for together', () => {
  /** Frames in the WAL: its 32-byte header, then a 24-byte header and a 4 KiB page each. */
  const walFrames = (url: string) => (statSync(`${url.slice('file:'.length)}-wal`).size - 32) / (24 + 4096);
  const emptyWal = async (database: Db) => {
    await database.$client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  };
  const insertBatch = (database: Db, v: string) =>
    database.$client.batch([{ sql: 'INSERT INTO probe (v) VALUES (?)', args: [v] }], 'write');

  it('commit once for all, each batch with its own results, and write the pages they share once', async () => {
    const { url, database } = await freshDatabase();
    await emptyWal(database);
    const together = await Promise.all(Array.from({ length: 20 }, (_, i) => insertBatch(database, `g${i}`)));
    expect(together.map((results) => results[0]!.rowsAffected)).toEqual(Array(20).fill(1));
    expect(new Set(together.map((results) => Number(results[0]!.lastInsertRowid))).size).toBe(20);
    const grouped = walFrames(url);
    await emptyWal(database);
    for (let i = 0; i < 20; i++) await insertBatch(database, `s${i}`);
    const oneByOne = walFrames(url);
    // one commit writes the probe table's page (and the file's header page) once
    expect(grouped).toBeLessThanOrEqual(4);
    expect(oneByOne).toBeGreaterThanOrEqual(20);
    const count = await database.$client.execute('SELECT count(*) FROM probe');
    expect(Number(count.rows[0]![0])).toBe(40);
  });

  it('refuse only the batch whose statement fails, roll back all of that batch, and commit the others first', async () => {
    const { database } = await freshDatabase();
    await database.$client.execute('CREATE UNIQUE INDEX probe_v ON probe (v)');
    await insertBatch(database, 'taken');
    const seenByRefused: string[] = [];
    const [first, refused, last] = await Promise.allSettled([
      insertBatch(database, 'first'),
      database.$client
        .batch(
          [
            { sql: 'INSERT INTO probe (v) VALUES (?)', args: ['half'] },
            { sql: 'INSERT INTO probe (v) VALUES (?)', args: ['taken'] },
          ],
          'write',
        )
        .catch(async (error: unknown) => {
          // what a caller reads on refusal (a taken Idempotency-Key: the stored answer) has committed
          const rows = await database.$client.execute("SELECT v FROM probe WHERE v IN ('first', 'last') ORDER BY v");
          seenByRefused.push(...rows.rows.map((r) => String(r.v)));
          throw error;
        }),
      insertBatch(database, 'last'),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(last.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect(String(((refused as PromiseRejectedResult).reason as LibsqlError).code)).toMatch(/^SQLITE_CONSTRAINT/);
    expect(seenByRefused).toEqual(['first', 'last']);
    const rows = await database.$client.execute('SELECT v FROM probe ORDER BY v');
    expect(rows.rows.map((r) => String(r.v))).toEqual(['first', 'last', 'taken']);
  });

  it("wait for another process's lock as one batch does, and then all commit", async () => {
    const { url, database } = await freshDatabase(5_000);
    const other = createClient({ url });
    const lock = await other.transaction('write'); // BEGIN IMMEDIATE, as another process would
    const writes = Promise.all(Array.from({ length: 10 }, (_, i) => insertBatch(database, `w${i}`)));
    let settled = false;
    void writes.finally(() => (settled = true)).catch(() => undefined);
    // A window to see that nothing commits while the lock is held, not a wait for the
    // writes: however slow the host, none can commit before the rollback below.
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    await lock.rollback();
    other.close();
    await writes;
    const count = await database.$client.execute("SELECT count(*) FROM probe WHERE v LIKE 'w%'");
    expect(Number(count.rows[0]![0])).toBe(10);
  });
});

describe('the local database', () => {
  it('is in WAL mode, so readers never wait for the writer', async () => {
    const { database } = await freshDatabase();
    const mode = await database.$client.execute('PRAGMA journal_mode');
    expect(String(mode.rows[0]![0])).toBe('wal');
  });

  it('switches a copy in rollback-journal mode to WAL when it opens it, so a write need not wait for a read transaction', async () => {
    const { database: source } = await freshDatabase();
    await source.run(sql`INSERT INTO probe (v) VALUES ('before')`);
    // A copy made by VACUUM INTO (a backup, a test's copy) is in rollback-journal mode,
    // and a server started on it with `next start` runs no migration.
    const copyPath = join(mkdtempSync(join(tmpdir(), 'sd-dur-')), 'copy.db');
    await source.$client.execute({ sql: 'VACUUM INTO ?', args: [copyPath] });
    const modeOf = () => {
      const plain = new Database(copyPath);
      try {
        return (plain.prepare('PRAGMA journal_mode').raw(true).get() as unknown[])[0];
      } finally {
        plain.close();
      }
    };
    expect(modeOf()).toBe('delete');

    const copy = openDatabase({ url: `file:${copyPath}`, busyTimeoutMs: 2_000 });
    expect(modeOf()).toBe('wal');
    // A read transaction that stays open until a write has committed beside it: in rollback-
    // journal mode its lock would hold the write back until it failed as busy.
    const seen = await readTransaction(copy, async (tx) => {
      const first = await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`);
      await copy.run(sql`INSERT INTO probe (v) VALUES ('during')`);
      const again = await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`);
      return [first[0]!.n, again[0]!.n];
    });
    expect(seen).toEqual([1, 1]); // one snapshot inside the transaction
    expect((await copy.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`))[0]!.n).toBe(2);
    closeDatabase(copy);
  });

  it("keeps its connections' locks on the file when another client opens it, so another process never takes the WAL from under them", async () => {
    const { url, database } = await freshDatabase();
    await database.run(sql`INSERT INTO probe (v) VALUES ('kept')`);
    const file = url.slice('file:'.length);
    // A second client of the same file in this process (the server's db() beside a script's).
    const second = openDatabase({ url });
    // Another process opens the file and closes it. Were this process's locks gone (a
    // descriptor of the file closed outside SQLite drops them all), it would take itself
    // for the last connection and delete the WAL the first client still reads.
    const source = `
      const Database = require('node:module').createRequire(process.cwd() + '/package.json')('libsql');
      const db = new Database(${JSON.stringify(file)});
      db.prepare('SELECT count(*) FROM probe').get();
      db.close();`;
    execFileSync(process.execPath, ['-e', source]);
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect((await database.all<{ v: string }>(sql`SELECT v FROM probe`)).map((r) => r.v)).toEqual(['kept']);
    closeDatabase(second);
  });

  it('writes on one connection with synchronous = NORMAL (WAL synced at checkpoints, not at every commit)', async () => {
    const { database } = await freshDatabase();
    await database.run(sql`INSERT INTO probe (v) VALUES ('x')`);
    // PRAGMA statements go the way writes go: the writer connection. 1 = NORMAL (2 = FULL).
    const level = await database.$client.execute('PRAGMA synchronous');
    expect(Number(level.rows[0]![0])).toBe(1);
    const tx = await database.$client.transaction('write');
    const inTx = await tx.execute('PRAGMA synchronous');
    await tx.commit();
    expect(Number(inTx.rows[0]![0])).toBe(1);
  });

  it('lets write transactions of one process that await in the middle take turns instead of deadlocking', async () => {
    const { database } = await freshDatabase(2_000);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        database.transaction(async (tx) => {
          await tx.run(sql`INSERT INTO probe (v) VALUES (${`a${i}`})`);
          await new Promise((r) => setTimeout(r, 5)); // a real yield to the event loop while holding the lock
          await tx.run(sql`INSERT INTO probe (v) VALUES (${`b${i}`})`);
        }),
      ),
    );
    const count = await database.$client.execute('SELECT count(*) FROM probe');
    expect(Number(count.rows[0]![0])).toBe(40);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails a write as busy when another process holds the lock past the busy timeout, and recovers once it is free', async () => {
    const { url, database } = await freshDatabase(150);
    // A plain client stands for another process: it does not share this process's write queue.
    const other = createClient({ url });
    const lock = await other.transaction('write'); // BEGIN IMMEDIATE
    try {
      const t0 = Date.now();
      const failed = await database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES ('x')`)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(LibsqlError);
      expect((failed as LibsqlError).code).toMatch(/BUSY/);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
      const failedAutocommit = await database.run(sql`INSERT INTO probe (v) VALUES ('y') RETURNING id`).catch((e: unknown) => e);
      // drizzle wraps the driver's error; the route wrapper looks through causes for it.
      expect(((failedAutocommit as Error).cause as LibsqlError).code).toMatch(/BUSY/);
    } finally {
      await lock.rollback();
      other.close();
    }
    // A busy failure must not leave a connection that fails later commits ("statements in progress").
    for (let i = 0; i < 5; i++) {
      await database.transaction(async (tx) => tx.run(sql`INSERT INTO probe (v) VALUES (${`ok${i}`})`));
    }
    const count = await database.$client.execute("SELECT count(*) FROM probe WHERE v LIKE 'ok%'");
    expect(Number(count.rows[0]![0])).toBe(5);
  });

  it("gives read connections a 1 MB page cache and leaves the writer SQLite's default", async () => {
    const { database } = await freshDatabase();
    const read = await database.$client.execute('SELECT cache_size FROM pragma_cache_size');
    expect(Number(read.rows[0]![0])).toBe(-1024);
    const write = await database.$client.execute('PRAGMA cache_size'); // a PRAGMA goes the way writes go
    expect(Number(write.rows[0]![0])).toBe(-2000);
  });

  it('checkpoints the WAL on a worker thread: the file takes the pages without the writer checkpointing', async () => {
    const { url, database } = await freshDatabase();
    const file = url.slice('file:'.length);
    // The writer's own automatic checkpoint is only a backstop now.
    const auto = await database.$client.execute('PRAGMA wal_autocheckpoint');
    expect(Number(auto.rows[0]![0])).toBe(BACKSTOP_PAGES);
    const before = statSync(file).size;
    // ~300 pages into the WAL: far below the backstop, so only the worker can move them.
    const row = 'x'.repeat(3000);
    for (let i = 0; i < 10; i += 1) {
      await database.$client.batch(
        Array.from({ length: 30 }, () => ({ sql: 'INSERT INTO probe (v) VALUES (?)', args: [row] })),
        'write',
      );
    }
    await expect.poll(() => statSync(file).size, { timeout: 5_000, interval: 50 }).toBeGreaterThan(before + 250 * 4096);
    const count = await database.$client.execute('SELECT count(*) FROM probe');
    expect(Number(count.rows[0]![0])).toBe(300);
    database.$client.close();
  });

  it('checkpoints at the interval it is opened with (DATABASE_CHECKPOINT_INTERVAL_MS)', async () => {
    const open = async (checkpointIntervalMs?: number) => {
      const { url, database } = await freshDatabase(undefined, checkpointIntervalMs);
      return { file: url.slice('file:'.length), database };
    };
    const often = await open();
    const seldom = await open(3_600_000);
    const sizes = { often: statSync(often.file).size, seldom: statSync(seldom.file).size };
    const row = 'x'.repeat(3000);
    for (const { database } of [often, seldom]) {
      await database.$client.batch(
        Array.from({ length: 100 }, () => ({ sql: 'INSERT INTO probe (v) VALUES (?)', args: [row] })),
        'write',
      );
    }
    // The default interval's worker has moved its pages into the file; the hour's has not begun.
    await expect.poll(() => statSync(often.file).size, { timeout: 5_000, interval: 50 }).toBeGreaterThan(sizes.often + 80 * 4096);
    expect(statSync(seldom.file).size).toBe(sizes.seldom);
    often.database.$client.close();
    seldom.database.$client.close();
  });

  it('survives its checkpoint worker being stopped mid-checkpoint, as process exit stops it (60 times)', async () => {
    // Calling the driver for a value while the thread is being terminated makes its native
    // binding panic and abort the process (and this test run with it); the worker must not.
    const file = freshUrl().slice('file:'.length);
    const writer = new Database(file);
    writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (v TEXT)');
    const insert = writer.prepare('INSERT INTO t (v) VALUES (?)');
    try {
      for (let round = 0; round < 60; round += 1) {
        for (let i = 0; i < 100; i += 1) insert.run('x'.repeat(2000)); // something to checkpoint
        const worker = new Worker(CHECKPOINT_WORKER_SOURCE, {
          eval: true,
          workerData: { path: file, intervalMs: 1, requireFrom: resolve('package.json') },
        });
        await new Promise((started) => worker.once('message', started));
        await new Promise((r) => setTimeout(r, 1 + (round % 7)));
        await worker.terminate();
      }
    } finally {
      writer.close();
    }
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(100 * 2000); // and the checkpoints did reach the file
  }, 60_000);

  it('goes back to checkpointing in the writer when the worker cannot run', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = checkpointerFor(join(mkdtempSync(join(tmpdir(), 'sd-dur-')), 'no', 'such', 'dir', 'site.db'));
    try {
      expect(broken.autocheckpointPages()).toBe(BACKSTOP_PAGES);
      await new Promise<void>((done) => broken.onFailure(done));
      expect(broken.autocheckpointPages()).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/checkpoint worker stopped/);
    } finally {
      broken.release();
      logged.mockRestore();
    }
  });

  it('keeps one checkpoint worker per file while any client has it open, and stops it with the last', async () => {
    const url = freshUrl();
    const file = resolve(url.slice('file:'.length));
    const workers = processSlot('sqliteCheckpointers', () => new Map<string, unknown>());
    const first = openDatabase({ url });
    const second = openDatabase({ url });
    await migrateDatabase(first);
    expect(workers.has(file)).toBe(true);
    first.$client.close();
    expect(workers.has(file)).toBe(true);
    second.$client.close();
    expect(workers.has(file)).toBe(false);
  });
});
