import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase, readTransaction, type Database as Db } from '@/db';
import { storageFaultOf } from '@/db/faults';
import { toProblem } from '@/lib/api/route';

vi.mock('server-only', () => ({}));

// A read that runs past DATABASE_STATEMENT_TIMEOUT_MS is interrupted (db/driver/statement-time-limit.ts):
// an endless recursive CTE stands for a read that streams far more rows than it should.

const opened: Db[] = [];
const scratch: string[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) closeDatabase(database);
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fresh(statementTimeoutMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'site-statement-limit-'));
  scratch.push(dir);
  const url = `file:${join(dir, 'site.db')}`;
  const database = openDatabase({ url, statementTimeoutMs });
  opened.push(database);
  await database.run(sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  await database.run(sql`INSERT INTO probe (v) VALUES ('kept')`);
  return database;
}

/**
 * Runs for minutes: counts to a billion, a row every thousand. (A plain SELECT: a statement
 * starting with WITH goes to the writer, whose statements have no limit.)
 */
const endless = sql`SELECT x FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000) SELECT x FROM n) WHERE x % 1000 = 0`;

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

describe('a read statement past its time limit', () => {
  it('is interrupted near its limit, answers 503 with Retry-After, and leaves the connections serving', async () => {
    const database = await fresh(100);
    const started = performance.now();
    const error = await failureOf(database.all(endless));
    const took = performance.now() - started;
    expect(storageFaultOf(error)).toBe('timeout');
    // Stopped near its limit (generous: the host is shared), not left to run.
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(5_000);

    const answer = toProblem(error, 'req-1', {});
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe('1');
    expect(answer.headers.get('Content-Type')).toContain('application/problem+json');
    expect(((await answer.json()) as { code: string }).code).toBe('service_unavailable');

    // Every read connection still answers, the same statement included, and so do read transactions and writes.
    const reads = await Promise.all(Array.from({ length: 30 }, () => database.all<{ v: string }>(sql`SELECT v FROM probe`)));
    expect(reads.every((rows) => rows[0]?.v === 'kept')).toBe(true);
    expect(storageFaultOf(await failureOf(database.all(endless)))).toBe('timeout');
    const inSnapshot = await readTransaction(database, async (tx) => {
      const [row] = await tx.all<{ v: string }>(sql`SELECT v FROM probe`);
      return row?.v;
    });
    expect(inSnapshot).toBe('kept');
    await database.run(sql`INSERT INTO probe (v) VALUES ('after')`);
    expect(await database.all(sql`SELECT v FROM probe ORDER BY id`)).toEqual([{ v: 'kept' }, { v: 'after' }]);
  });

  it('interrupts a read inside a read transaction, which then ends cleanly', async () => {
    const database = await fresh(100);
    const error = await failureOf(readTransaction(database, (tx) => tx.all(endless)));
    expect(storageFaultOf(error)).toBe('timeout');
    expect(await readTransaction(database, (tx) => tx.all<{ v: string }>(sql`SELECT v FROM probe`))).toEqual([{ v: 'kept' }]);
  });

  it('lets a long read within its limit finish whole', async () => {
    const database = await fresh(60_000);
    const rows = await database.all<{ x: number }>(
      sql`SELECT x FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000) SELECT x FROM n)`,
    );
    expect(rows).toHaveLength(20_000);
    expect(rows.at(-1)).toEqual({ x: 20_000 });
  });
});
