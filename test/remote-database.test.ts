import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { beginTransaction, closeDatabase, deleteStep, openConnection, openDatabase, readTransaction, type Database } from '@/db';
import { storageFaultOf } from '@/db/faults';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { splitStatements, startLibsqlTestServer, type LibsqlTestServer, type LibsqlTestServerOptions } from '../e2e/support/libsql-server';

// The app's database layer against a libSQL server over HTTP (the test server in
// e2e/support/libsql-server.ts, which speaks Hrana as sqld does, over a local file), and
// the remote faults: a server that is down, stalls, or refuses the credential.

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function serverOnAFreshFile(options: Partial<LibsqlTestServerOptions> = {}): Promise<LibsqlTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sd-remote-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startLibsqlTestServer({ path: join(dir, 'site.db'), ...options });
  cleanup.push(() => server.close());
  return server;
}

function open(url: string, options: { timeoutMs?: number; authToken?: string } = {}): Database {
  const database = openDatabase({ url, ...options });
  cleanup.push(() => closeDatabase(database));
  return database;
}

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (e: unknown) => e,
  );
const count = async (database: Database) => Number((await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`))[0]!.n);

describe('the libSQL test server, through the app’s own client', () => {
  it('migrates and seeds the schema over HTTP, and the seeded catalog reads back', async () => {
    const server = await serverOnAFreshFile();
    const database = open(server.url);
    await migrateDatabase(database);
    const summary = await seedDatabase(database);
    expect(summary).toBeTruthy();
    const rows = await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM products`);
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    expect(server.requests()).toBeGreaterThan(2);
  });

  it('keeps an interactive transaction on one stream across requests: its writes are seen inside, and gone after rollback', async () => {
    const server = await serverOnAFreshFile();
    const database = open(server.url);
    await database.run(sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
    await database.run(sql`INSERT INTO probe (v) VALUES ('kept')`);
    await expect(
      database.transaction(async (tx) => {
        await tx.run(sql`INSERT INTO probe (v) VALUES ('inside')`);
        expect(Number((await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM probe`))[0]!.n)).toBe(2);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count(database)).toBe(1);
    await database.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO probe (v) VALUES ('committed')`);
    });
    expect(await readTransaction(database, (tx) => count(tx))).toBe(2);
  });

  it('walks a table in short writes (deleteStep): one request a step, the rows matching deleted, the walk ended', async () => {
    const server = await serverOnAFreshFile();
    const database = open(server.url);
    await database.run(sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
    for (const v of ['dead', 'kept', 'dead', 'dead', 'kept']) await database.run(sql`INSERT INTO probe (v) VALUES (${v})`);
    const steps: Array<{ deleted: number; requests: number }> = [];
    for (let after: number | null = 0; after !== null;) {
      const before = server.requests();
      const step = await deleteStep(database, 'probe', 'v = ?', ['dead'], after, 2);
      steps.push({ deleted: step.deleted, requests: server.requests() - before });
      after = step.next;
    }
    expect(steps).toEqual([
      { deleted: 1, requests: 1 },
      { deleted: 2, requests: 1 },
      { deleted: 0, requests: 1 },
    ]);
    expect((await database.all<{ v: string }>(sql`SELECT v FROM probe ORDER BY id`)).map((r) => r.v)).toEqual(['kept', 'kept']);
  });

  it('refuses what sqld refuses: several statements in one execute, VACUUM, ATTACH, a PRAGMA write', async () => {
    const server = await serverOnAFreshFile();
    const client = openConnection(server.url);
    cleanup.push(() => client.close());
    const codeOf = async (statement: string) => ((await failureOf(client.execute(statement))) as { code?: string } | null)?.code;
    expect(await codeOf('SELECT 1; SELECT 2')).toBe('SQL_MANY_STATEMENTS');
    expect(await codeOf('VACUUM')).toBe('SQLITE_AUTH');
    expect(await codeOf("ATTACH 'other.db' AS other")).toBe('SQLITE_AUTH');
    expect(await codeOf('PRAGMA journal_mode = DELETE')).toBe('SQLITE_AUTH');
    // …while a sequence runs several, a PRAGMA read and a foreign-key switch are fine, and a
    // constraint error comes back with its primary code, as sqld sends it.
    await client.executeMultiple("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE); INSERT INTO t (v) VALUES ('a');");
    await client.execute('PRAGMA foreign_keys = OFF');
    expect((await client.execute('PRAGMA table_info(t)')).rows).toHaveLength(2);
    expect(await codeOf("INSERT INTO t (v) VALUES ('a')")).toBe('SQLITE_CONSTRAINT');
  });

  it('splits SQL as SQLite does: not inside strings, comments or a trigger’s body', () => {
    expect(splitStatements("SELECT 'a;b'; -- x;\nSELECT 2 /* ; */;")).toEqual(["SELECT 'a;b'", '-- x;\nSELECT 2 /* ; */']);
    const trigger = 'CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = CASE WHEN n > 0 THEN 1 ELSE 0 END; DELETE FROM c; END';
    expect(splitStatements(`${trigger}; SELECT 1`)).toEqual([trigger, 'SELECT 1']);
  });

  it('adds the latency it is given to every request', async () => {
    const server = await serverOnAFreshFile({ latencyMs: 150 });
    const database = open(server.url);
    const started = performance.now();
    await database.run(sql`SELECT 1`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('takes the lock from a write transaction older than its limit when another writer waits; that transaction then fails as busy', async () => {
    const server = await serverOnAFreshFile({ writeTxTimeoutMs: 300 });
    const database = open(server.url);
    await database.run(sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
    const holder = await beginTransaction(database, 'write');
    await holder.execute("INSERT INTO probe (v) VALUES ('held')");
    const started = performance.now();
    await database.run(sql`INSERT INTO probe (v) VALUES ('waited')`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    const failure = await failureOf(holder.execute("INSERT INTO probe (v) VALUES ('late')"));
    holder.close();
    expect((failure as { code?: string }).code).toBe('TRANSACTION_TIMEOUT');
    expect(storageFaultOf(failure)).toBe('busy');
    expect(await count(database)).toBe(1);
  });
});

describe('remote database faults', () => {
  it('a server that is down: the query fails at once as unreachable, and works again once it is back', async () => {
    const server = await serverOnAFreshFile();
    const database = open(server.url, { timeoutMs: 5000 });
    await database.run(sql`SELECT 1`);
    await server.stop();
    const started = performance.now();
    const failure = await failureOf(database.run(sql`SELECT 1`));
    expect(failure).toBeTruthy();
    expect(storageFaultOf(failure)).toBe('unreachable');
    expect(performance.now() - started).toBeLessThan(2000);
    await server.start();
    await database.run(sql`SELECT 1`);
  });

  it('a server that stalls: the query fails as unreachable after DATABASE_TIMEOUT_MS, not never; for a moment after, queries fail at once', async () => {
    const server = await serverOnAFreshFile();
    const database = open(server.url, { timeoutMs: 400 });
    await database.run(sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
    server.pause();
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      const failure = await failureOf(work());
      return { fault: storageFaultOf(failure), took: performance.now() - started };
    };
    const first = await timed(() => database.run(sql`SELECT 1`));
    expect(first.fault).toBe('unreachable');
    expect(first.took).toBeGreaterThanOrEqual(380);
    expect(first.took).toBeLessThan(1500);
    // A request's further round trips do not each wait out the timeout again.
    for (const work of [
      () => database.run(sql`INSERT INTO probe (v) VALUES ('x')`),
      () => database.transaction(async (tx) => tx.run(sql`SELECT 1`)),
    ]) {
      const next = await timed(work);
      expect(next.fault).toBe('unreachable');
      expect(next.took).toBeLessThan(200);
    }
    const heldBefore = server.requests();
    server.resume();
    await expect.poll(() => count(database).catch(() => -1), { timeout: 5000, interval: 100 }).toBe(0);
    expect(server.requests()).toBeGreaterThan(heldBefore);
  });

  it('a server that refuses the credential (401): denied', async () => {
    const server = await serverOnAFreshFile({ authToken: 'the-right-token' });
    await open(server.url, { authToken: 'the-right-token' }).run(sql`SELECT 1`);
    const failure = await failureOf(open(server.url, { authToken: 'a-wrong-token' }).run(sql`SELECT 1`));
    expect(storageFaultOf(failure), String(failure)).toBe('denied');
    expect(storageFaultOf(await failureOf(open(server.url).run(sql`SELECT 1`)))).toBe('denied');
  });

  it('a port where nothing listens: unreachable', async () => {
    const failure = await failureOf(open('http://127.0.0.1:9', { timeoutMs: 2000 }).run(sql`SELECT 1`));
    expect(storageFaultOf(failure), String(failure)).toBe('unreachable');
  });

  it('an ordinary SQL error from the server is not a storage fault', async () => {
    const server = await serverOnAFreshFile();
    const failure = await failureOf(open(server.url).run(sql`SELECT * FROM no_such_table`));
    expect(failure).toBeTruthy();
    expect(storageFaultOf(failure)).toBeNull();
  });
});
