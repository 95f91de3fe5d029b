import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, LibsqlError } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';

const freshUrl = () => `file:${join(mkdtempSync(join(tmpdir(), 'sd-dur-')), 'site.db')}`;

async function freshDatabase(busyTimeoutMs?: number) {
  const url = freshUrl();
  const database = openDatabase({ url, busyTimeoutMs });
  await migrateDatabase(database, url);
  await database.run(sql`CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  return { url, database };
}

describe('the local database', () => {
  it('is in WAL mode after migration, so readers never wait for the writer', async () => {
    const { database } = await freshDatabase();
    const mode = await database.$client.execute('PRAGMA journal_mode');
    expect(String(mode.rows[0]![0])).toBe('wal');
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
    await Promise.all(Array.from({ length: 20 }, (_, i) => database.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO probe (v) VALUES (${`a${i}`})`);
      await new Promise((r) => setTimeout(r, 5)); // a real yield to the event loop while holding the lock
      await tx.run(sql`INSERT INTO probe (v) VALUES (${`b${i}`})`);
    })));
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
});
