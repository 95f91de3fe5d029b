import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'libsql';
import { ConnectionPool, Sqlite3Client } from '@libsql/client/sqlite3';
import { is, Param, Placeholder, sql } from 'drizzle-orm';
import { SQLiteTransaction } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { products } from '@/db/schema';

/**
 * db/ reaches into the internals of these packages (a pool subclass, statement methods,
 * drizzle's parameter objects): see db/driver/ and db/prepared.ts.
 * package.json pins them exactly; an upgrade must
 * fail here, loudly, before it can fail quietly in production.
 */
const PINNED = ['@libsql/client', 'libsql', 'drizzle-orm', 'drizzle-kit'] as const;

const manifest = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('the database packages whose internals db/ relies on', () => {
  it.each(PINNED)('%s is pinned to one exact version, and that version is installed', (name) => {
    const wanted = manifest.dependencies[name] ?? manifest.devDependencies[name];
    expect(wanted, `${name} must be pinned exactly (no ^ or ~)`).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (JSON.parse(readFileSync(resolve('node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    expect(installed, `${name}: installed ${installed}, pinned ${wanted}. Check db/ against the new version before changing the pin.`).toBe(
      wanted,
    );
  });

  it('@libsql/client/sqlite3 still exports the pool and client that db/driver/statement-cache.ts extends', () => {
    expect(typeof ConnectionPool).toBe('function');
    expect(typeof ConnectionPool.prototype.acquireSync).toBe('function');
    expect(typeof ConnectionPool.prototype.release).toBe('function');
    expect(typeof Sqlite3Client).toBe('function');
  });

  it('libsql statements still have the methods the statement cache wraps, and raw() still throws for a statement without rows', () => {
    const connection = new Database(':memory:');
    try {
      const select = connection.prepare('SELECT 1 AS one');
      for (const name of ['run', 'get', 'all', 'iterate', 'columns', 'raw', 'safeIntegers'] as const) {
        expect(typeof (select as unknown as Record<string, unknown>)[name], name).toBe('function');
      }
      expect(select.columns().map((c) => c.name)).toEqual(['one']);
      connection.exec('CREATE TABLE t (v)');
      const insert = connection.prepare('INSERT INTO t (v) VALUES (1)');
      // db/driver/statement-cache.ts learns "returns no rows" from this throw, as the client does.
      expect(() => insert.raw(true)).toThrow();
    } finally {
      connection.close();
    }
  });

  it('drizzle still builds placeholders as Param(Placeholder) with an encoder, as db/prepared.ts reads them', () => {
    const client = createClient({ url: ':memory:' });
    try {
      const database = drizzle({ client });
      const query = database
        .select()
        .from(products)
        .where(sql`${products.handle} = ${sql.placeholder('h')}`)
        .prepare();
      const { sql: text, params } = query.getQuery();
      expect(text).toContain('?');
      expect(params.some((p) => is(p, Placeholder) || (is(p, Param) && is((p as Param).value, Placeholder)))).toBe(true);
      const param = new Param(sql.placeholder('x'), products.handle);
      expect(typeof param.encoder.mapToDriverValue).toBe('function');
      expect(typeof SQLiteTransaction).toBe('function');
    } finally {
      client.close();
    }
  });
});
