import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { createStatementCachingClient, STATEMENTS_PER_CONNECTION } from '@/db/driver/statement-cache';

const dir = mkdtempSync(join(tmpdir(), 'sd-stmt-'));
const file = join(dir, 'site.db');
const database = openDatabase({ url: `file:${file}` });
const other = new Database(file);

afterAll(() => {
  other.close();
  database.$client.close();
});

describe('a client that compiles each statement once per connection', () => {
  it('reads what other connections committed since (a kept statement holds no snapshot)', async () => {
    await database.$client.execute('PRAGMA journal_mode = WAL');
    await database.run(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)`);
    await database.run(sql`INSERT INTO t (id, v) VALUES (1, 'a')`);
    const seen = [];
    for (const next of ['b', 'c', 'd']) {
      seen.push((await database.all<{ v: string }>(sql`SELECT v FROM t WHERE id = ${1}`))[0]?.v);
      other.prepare('UPDATE t SET v = ? WHERE id = 1').run(next);
    }
    seen.push((await database.all<{ v: string }>(sql`SELECT v FROM t WHERE id = ${1}`))[0]?.v);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps working after a statement fails, with the same SQL and in transactions', async () => {
    const insert = (v: string) => database.all<{ id: number }>(sql`INSERT INTO t (v) VALUES (${v}) RETURNING id`);
    await insert('dup');
    await expect(insert('dup')).rejects.toMatchObject({ cause: { message: expect.stringMatching(/UNIQUE/) } });
    expect(await insert('fresh')).toHaveLength(1);
    await expect(
      database.transaction(async (tx) => {
        await tx.run(sql`INSERT INTO t (v) VALUES (${'in-tx'})`);
        await tx.run(sql`INSERT INTO t (v) VALUES (${'dup'})`);
      }),
    ).rejects.toThrow();
    const rows = await database.all<{ v: string }>(sql`SELECT v FROM t ORDER BY id`);
    expect(rows.map((r) => r.v)).toEqual(['d', 'dup', 'fresh']); // the failed transaction left nothing
  });

  it('compiles a repeated statement once, and keeps a bounded number per connection', async () => {
    let compiled = 0;
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, text: string) {
      compiled += 1;
      return prepare.call(this, text);
    } as typeof prepare;
    const client = createStatementCachingClient(file, { timeout: 1000, maxConnections: 1 });
    compiled = 0;
    try {
      for (let i = 0; i < 50; i++) await client.execute({ sql: 'SELECT v FROM t WHERE id = ?', args: [i] });
      expect(compiled).toBe(1);
      for (let i = 0; i < STATEMENTS_PER_CONNECTION + 10; i++) await client.execute(`SELECT ${i} AS n`);
      compiled = 0;
      await client.execute('SELECT 0 AS n'); // the oldest were let go
      await client.execute(`SELECT ${STATEMENTS_PER_CONNECTION + 9} AS n`); // the newest kept
      expect(compiled).toBe(1);
    } finally {
      Database.prototype.prepare = prepare;
      client.close();
    }
  });
});

describe('statementOf (a prepared drizzle query as a plain statement)', () => {
  it('fills values as drizzle does — column encoders included, but NULL kept as NULL — and refuses a missing one', async () => {
    const { fillPlaceholders, getTableColumns, sql: tag } = await import('drizzle-orm');
    const { statementOf } = await import('@/db/prepared');
    const { checkoutSessions } = await import('@/db/schema');
    const columns = Object.keys(getTableColumns(checkoutSessions));
    const query = database
      .insert(checkoutSessions)
      .values(Object.fromEntries(columns.map((n) => [n, tag.placeholder(n)])) as never)
      .prepare();
    const address = { name: 'A', line1: 'Storgatan 1', city: 'Stockholm', postalCode: '111 22', country: 'SE' };
    const values: Record<string, unknown> = Object.fromEntries(columns.map((n, i) => [n, i]));
    Object.assign(values, { id: 'cs_test', shippingAddress: address, billingAddress: null, email: 'a@example.com' });
    // drizzle's own fill encodes a null JSON value as the text 'null'; a row must hold SQL NULL
    const expected = fillPlaceholders(query.getQuery().params, values).map((v, i) => (Object.values(values)[i] === null ? null : v));
    for (let i = 0; i < 2; i += 1) {
      const statement = statementOf(query, values) as { sql: string; args: unknown[] };
      expect(statement.sql).toBe(query.getQuery().sql);
      expect(statement.args).toEqual(expected);
    }
    // the JSON column is encoded, not passed as an object
    expect((statementOf(query, values) as { args: unknown[] }).args).toContain(JSON.stringify(address));
    const missing = { ...values };
    delete missing.email;
    expect(() => statementOf(query, missing)).toThrow('No value for placeholder "email" was provided');
  });
});
