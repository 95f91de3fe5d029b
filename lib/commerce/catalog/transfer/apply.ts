import type { Client, InValue, Transaction } from '@libsql/client';
import { getTableColumns, getTableName, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { schema, type Database } from '@/db/client';
import { bundleItems, checkoutSessionLines, stockSubscriptions } from '@/db/schema';
import { insertChunked } from '@/db/seed';
import { deferSearchIndex } from '@/db/search-index';
import { TABLE_ORDER, TABLES, type CatalogChanges, type TableName } from './plan';

/** A Drizzle handle on an open libSQL transaction, for reads inside it. */
export function onTransaction(tx: Transaction): Database {
  return drizzle({ client: tx as unknown as Client, schema, casing: 'snake_case' }) as Database;
}

/**
 * Runs `work` in one write transaction (or a read transaction for a dry run, which writes
 * nothing) and commits only when it says so.
 */
export async function inCatalogTransaction<T>(database: Database, mode: 'write' | 'read', work: (tx: Transaction) => Promise<{ commit: boolean; result: T }>): Promise<T> {
  const tx = await database.$client.transaction(mode);
  try {
    const { commit, result } = await work(tx);
    if (commit) await tx.commit();
    else await tx.rollback();
    return result;
  } catch (error) {
    await tx.rollback().catch(() => undefined);
    throw error;
  } finally {
    tx.close();
  }
}

function columnsOf(table: SQLiteTable) {
  return new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [key, {
    column: column as SQLiteColumn,
    name: column.keyAsName ? toSnakeCase(column.name) : column.name,
  }]));
}

const value = (column: SQLiteColumn, v: unknown): InValue => (v === null || v === undefined ? null : (column.mapToDriverValue(v) as InValue));

/**
 * Writes exactly the changed rows. Each write fires the catalog-version triggers, so every
 * running instance sees the new catalog on its next request; no change, no write, no new
 * version. Membership rows go first (a changed collection is rewritten whole, on the same
 * keys), then inserts parents-first, updates, and the other deletes children-first.
 */
export async function applyChanges(tx: Transaction, changes: CatalogChanges): Promise<void> {
  // Each changed product's search documents are written once, before the commit (db/search-index.ts).
  await deferSearchIndex(tx, () => writeChanges(tx, changes));
}

async function writeChanges(tx: Transaction, changes: CatalogChanges): Promise<void> {
  const remove = async (name: TableName) => {
    const rows = changes[name].delete;
    if (rows.length === 0) return;
    const { table, key } = TABLES[name];
    const cols = columnsOf(table);
    const where = key.map((k) => `"${cols.get(k)!.name}" = ?`).join(' AND ');
    const sql = `DELETE FROM "${getTableName(table)}" WHERE ${where}`;
    for (const row of rows) await tx.execute({ sql, args: key.map((k) => value(cols.get(k)!.column, row[k])) });
  };

  await remove('collectionProducts');
  for (const name of TABLE_ORDER) {
    const rows = changes[name].insert;
    if (rows.length > 0) await insertChunked(tx, TABLES[name].table, rows as never[]);
  }
  for (const name of TABLE_ORDER) {
    const rows = changes[name].update;
    if (rows.length === 0) continue;
    const { table, key } = TABLES[name];
    const cols = columnsOf(table);
    const set = [...cols.keys()].filter((k) => !key.includes(k as never) && rows[0]![k] !== undefined);
    const sql = `UPDATE "${getTableName(table)}" SET ${set.map((k) => `"${cols.get(k)!.name}" = ?`).join(', ')} WHERE ${key.map((k) => `"${cols.get(k)!.name}" = ?`).join(' AND ')}`;
    for (const row of rows) {
      await tx.execute({ sql, args: [...set, ...key].map((k) => value(cols.get(k)!.column, row[k])) });
    }
  }
  for (const name of [...TABLE_ORDER].reverse()) if (name !== 'collectionProducts') await remove(name);
}

/**
 * Variants still named by a restock signup, a checkout line or a bundle item the import
 * keeps (all but `rewritten`, keyed bundle id NUL position): these cannot be removed.
 */
export async function variantsInUse(tx: Transaction, ids: string[], rewritten: Set<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const database = onTransaction(tx);
  for (const r of await database.select({ id: stockSubscriptions.variantId }).from(stockSubscriptions).where(inArray(stockSubscriptions.variantId, ids))) out.set(r.id, 'a restock signup');
  for (const r of await database.select({ id: checkoutSessionLines.variantId }).from(checkoutSessionLines).where(inArray(checkoutSessionLines.variantId, ids))) out.set(r.id, 'a checkout session');
  for (const r of await database.select({ id: bundleItems.variantId, bundleId: bundleItems.bundleId, position: bundleItems.position }).from(bundleItems).where(inArray(bundleItems.variantId, ids))) {
    if (!rewritten.has(`${r.bundleId}\u0000${r.position}`)) out.set(r.id, 'a bundle');
  }
  return out;
}
