import { getTableColumns, getTableName } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  beginTransaction,
  overNetwork,
  writeBatch,
  type Database,
  type Result,
  type Statement,
  type StatementTransaction,
  type Value,
} from '@/db';
import { catalogImportStaged } from '@/db/schema';
import { insertStatements, MAX_BOUND_VARIABLES } from '@/db/seed';
import { MERGE_FROM, SEARCH_INDEX_DEFER, SEARCH_INDEX_FLUSH, SEARCH_INDEX_MERGE, SEARCH_INDEX_RESUME } from '@/db/search-index';
import { newId } from '@/lib/platform/ids';
import { TABLE_ORDER, TABLES, type CatalogChanges, type TableName } from './plan';

/**
 * Runs `work` in one transaction (a read transaction for the plan, which writes nothing)
 * and commits only when it says so.
 */
export async function inCatalogTransaction<T>(
  database: Database,
  mode: 'write' | 'read',
  work: (tx: StatementTransaction) => Promise<{ commit: boolean; result: T }>,
): Promise<T> {
  const tx = await beginTransaction(database, mode);
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

export type Applied = { ok: true; catalogVersion: number } | { ok: false; inUse: Map<string, string> };

/**
 * Writes exactly the changed rows. A change whose new products fit in one chunk is one
 * transaction sent as one request (`applyAtOnce`). A larger one first writes its new products
 * ahead, unpublished, a chunk per request, and then everything else, publishing them, in one
 * last transaction (`stagingOf`).
 */
export async function applyChanges(
  database: Database,
  siteId: string,
  changes: CatalogChanges,
  removedVariantIds: string[],
  deletedVariantIds: string[] = [],
  options: { stageRows?: number; now?: number; abandoned?: boolean } = {},
): Promise<Applied> {
  const now = options.now ?? Date.now();
  const started = performance.now();
  const clock = () => Math.round(now + performance.now() - started);
  if (options.abandoned) await deleteStaged(database, 'site_id = ? AND staged_at < ?', [siteId, now - STAGE_LEASE_MS]);
  const staging = stagingOf(changes, options.stageRows ?? STAGE_ROWS);
  if (!staging) return applyAtOnce(database, siteId, changes, removedVariantIds, deletedVariantIds);
  const importId = newId('imp');
  try {
    for (const chunk of staging.chunks) {
      await writeBatch(database, [
        SEARCH_INDEX_DEFER,
        ...writeStatements(chunk),
        ...SEARCH_INDEX_FLUSH,
        SEARCH_INDEX_RESUME,
        ...insertStatements(
          catalogImportStaged,
          chunk.products.insert.map((p) => ({ productId: String(p.id), siteId, importId, stagedAt: clock() })),
        ),
        // the import's lease: it is alive while it writes
        { sql: 'UPDATE catalog_import_staged SET staged_at = ? WHERE import_id = ?', args: [clock(), importId] },
      ]);
    }
    const publish: Statement[] = [
      ...[...slices(staging.publish, 1)].map((ids) => ({
        sql: `UPDATE products SET status = 'published' WHERE id IN ${tuple(ids.length)}`,
        args: ids,
      })),
      { sql: 'DELETE FROM catalog_import_staged WHERE import_id = ?', args: [importId] },
    ];
    const applied = await applyAtOnce(database, siteId, staging.rest, removedVariantIds, deletedVariantIds, publish, true);
    if (!applied.ok) await deleteStaged(database, 'import_id = ?', [importId]);
    return applied;
  } catch (error) {
    await deleteStaged(database, 'import_id = ?', [importId]).catch(() => undefined);
    throw error;
  }
}

/**
 * Rows of new products written ahead of the last commit, about this many a request.
 *
 * A write transaction holds the database's only write lock while the server runs it: 10,000
 * new products (~270,000 rows with their search documents) held it for seconds in one commit,
 * and a remote libSQL server rolls back a write held past 5 s while another writer waits (a
 * checkout on another instance). A chunk of this many rows holds it well under a second.
 */
export const STAGE_ROWS = 10_000;

/** An import that has written no chunk for this long has died: the next one deletes what it wrote ahead. */
export const STAGE_LEASE_MS = 10 * 60_000;

type Staging = { chunks: CatalogChanges[]; rest: CatalogChanges; publish: string[] };

const PRODUCT_ROWS = ['productTranslations', 'productImages', 'productVariants'] as const;
const VARIANT_ROWS = ['variantPrices', 'inventoryLevels'] as const;

const emptyChanges = (): CatalogChanges =>
  Object.fromEntries(TABLE_ORDER.map((t) => [t, { insert: [], update: [], delete: [] }])) as unknown as CatalogChanges;

/**
 * The new products, each with its texts, images, variants, prices and stock, in chunks of
 * about `chunkRows` rows; null when they fit in one. Shoppers see only published products,
 * so one written ahead as a draft (the import's "published" ones; drafts and archived ones
 * keep their status) shows nowhere until the last commit publishes it (`publish`), with
 * everything else the import changes (`rest`): collections and their members, bundles,
 * updates and deletes. All or nothing, as the shopper sees it.
 */
export function stagingOf(changes: CatalogChanges, chunkRows: number): Staging | null {
  const newProducts = changes.products.insert;
  const rowsOf = new Map<unknown, Partial<Record<TableName, Record<string, unknown>[]>>>();
  const add = (productId: unknown, table: TableName, row: Record<string, unknown>) => {
    const entry = rowsOf.get(productId);
    if (!entry) return false;
    (entry[table] ??= []).push(row);
    return true;
  };
  for (const p of newProducts) rowsOf.set(p.id, {});
  const productOfVariant = new Map<unknown, unknown>();
  const rest = emptyChanges();
  for (const table of TABLE_ORDER) {
    const { insert, update, delete: remove } = changes[table];
    rest[table].update = update;
    rest[table].delete = remove;
    if (table === 'products') continue;
    for (const row of insert) {
      const owner = (PRODUCT_ROWS as readonly string[]).includes(table)
        ? row.productId
        : (VARIANT_ROWS as readonly string[]).includes(table)
          ? productOfVariant.get(row.variantId)
          : undefined;
      if (table === 'productVariants' && rowsOf.has(owner)) productOfVariant.set(row.id, owner);
      if (owner === undefined || !add(owner, table, row)) rest[table].insert.push(row);
    }
  }
  let total = 0;
  const size = (rows: Partial<Record<TableName, Record<string, unknown>[]>>) =>
    1 + Object.values(rows).reduce((n, list) => n + list.length, 0);
  for (const rows of rowsOf.values()) total += size(rows);
  if (total <= chunkRows) return null;

  const chunks: CatalogChanges[] = [];
  const publish: string[] = [];
  let chunk = emptyChanges();
  let inChunk = 0;
  for (const p of newProducts) {
    const rows = rowsOf.get(p.id)!;
    if (inChunk > 0 && inChunk + size(rows) > chunkRows) {
      chunks.push(chunk);
      chunk = emptyChanges();
      inChunk = 0;
    }
    if (p.status === 'published') publish.push(String(p.id));
    chunk.products.insert.push(p.status === 'published' ? { ...p, status: 'draft' } : p);
    for (const [table, list] of Object.entries(rows)) chunk[table as TableName].insert.push(...list);
    inChunk += size(rows);
  }
  chunks.push(chunk);
  return { chunks, rest, publish };
}

/** Staged products per request when they are deleted (an import that failed, or one that died). */
const DELETE_STAGED = 1_000;

/**
 * Deletes the staged products `where` (a condition on catalog_import_staged) with every row
 * written ahead with them, a slice per request. Each statement names its products by the same
 * slice of staged rows, and those rows go last, so every statement of a batch sees the same
 * slice (a foreign key's cascade may have removed them with their products already).
 */
async function deleteStaged(database: Database, where: string, args: Value[]): Promise<void> {
  const staged = `SELECT product_id FROM catalog_import_staged WHERE ${where} ORDER BY product_id LIMIT ${DELETE_STAGED}`;
  const variants = `SELECT id FROM product_variants WHERE product_id IN (${staged})`;
  // The tables a staged product's rows were written to (stagingOf), children first.
  const rows: Statement[] = [
    ...VARIANT_ROWS.map((t) => ({ sql: `DELETE FROM ${tableName(t)} WHERE variant_id IN (${variants})`, args })),
    ...[...PRODUCT_ROWS].reverse().map((t) => ({ sql: `DELETE FROM ${tableName(t)} WHERE product_id IN (${staged})`, args })),
  ];
  for (;;) {
    const results = await writeBatch(database, [
      ...rows,
      { sql: `SELECT count(*) AS n FROM (${staged})`, args },
      { sql: `DELETE FROM products WHERE id IN (${staged})`, args },
      { sql: 'DELETE FROM catalog_import_staged WHERE product_id NOT IN (SELECT id FROM products)', args: [] },
    ]);
    if (Number(results[rows.length]?.rows[0]?.n ?? 0) < DELETE_STAGED) return;
  }
}

const tableName = (table: TableName) => getTableName(TABLES[table].table);

/**
 * Writes exactly the changed rows, in one transaction sent as one request.
 *
 * A remote libSQL server (sqld, Turso) holds its write lock from a transaction's first write
 * to its commit, and every statement sent on its own is a round trip: written row by row, a
 * 49-product change was 304 requests, 6 s of lock at 20 ms a round trip, while the other
 * instances' checkouts waited for it. Sent as one batch the lock is held only while the
 * server runs the statements, and each table's inserts, updates and deletes are a few
 * multi-row statements. A local file gains too: one transaction, a few statements.
 *
 * Each write fires the catalog-version triggers, so every running instance sees the new
 * catalog on its next request; no change, no write, no new version. Each changed product's
 * search documents are written once, before the commit (db/search-index.ts). Merging the
 * index after a large change changes no answer: over a network (or after products written
 * ahead, `later`) it is a transaction of its own, so the catalog's lock is shorter by it; in
 * a local file it stays in the batch, where it costs ~1 s less at 10,000 products (the pages
 * it merges were just written).
 *
 * When the import removes variants, whether a restock signup, a checkout session or a bundle
 * still names one is asked inside the write (those are written while the shop runs): the
 * transaction then takes three requests more: opening it, the question, and the commit.
 */
async function applyAtOnce(
  database: Database,
  siteId: string,
  changes: CatalogChanges,
  removedVariantIds: string[],
  deletedVariantIds: string[],
  also: Statement[] = [],
  later = false,
): Promise<Applied> {
  const merge = changes.products.insert.length + changes.products.update.length >= MERGE_FROM || later;
  const mergeLater = merge && (later || overNetwork(database));
  const statements: Statement[] = [
    SEARCH_INDEX_DEFER,
    // a deleted product's finished restock signups (and their links) go with it; open ones refuse the delete below
    ...closedSignupDeletes(deletedVariantIds),
    ...writeStatements(changes),
    ...also,
    ...SEARCH_INDEX_FLUSH,
    ...(merge && !mergeLater ? SEARCH_INDEX_MERGE : []),
    SEARCH_INDEX_RESUME,
    { sql: 'SELECT catalog_version AS v FROM sites WHERE id = ?', args: [siteId] },
  ];
  let results: Result[];
  if (removedVariantIds.length === 0 && deletedVariantIds.length === 0) {
    results = await writeBatch(database, statements);
  } else {
    const tx = await beginTransaction(database, 'write');
    try {
      // both questions in one request
      const inUse = readInUse(
        await tx.batch([...inUseChecks(removedVariantIds), ...heldChecks(deletedVariantIds)]),
        rewrittenBundleItems(changes),
      );
      if (inUse.size > 0) {
        await tx.rollback();
        return { ok: false, inUse };
      }
      results = await tx.batch(statements);
      await tx.commit();
    } catch (error) {
      await tx.rollback().catch(() => undefined);
      throw error;
    } finally {
      tx.close();
    }
  }
  if (mergeLater) {
    // The catalog has committed; a merge that fails (the lock taken too long) leaves the index
    // correct, in more segments, for FTS5's own merging to reduce.
    await writeBatch(database, SEARCH_INDEX_MERGE).catch(() => undefined);
  }
  return { ok: true, catalogVersion: Number(results.at(-1)?.rows[0]?.v ?? 0) };
}

function columnsOf(table: SQLiteTable) {
  return new Map(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      {
        column: column as SQLiteColumn,
        name: column.keyAsName ? toSnakeCase(column.name) : column.name,
      },
    ]),
  );
}

const value = (column: SQLiteColumn, v: unknown): Value => (v === null || v === undefined ? null : (column.mapToDriverValue(v) as Value));

/** Rows in slices whose bound values stay under SQLite's limit, `width` values a row. */
function* slices<T>(rows: T[], width: number): Generator<T[]> {
  const size = Math.max(1, Math.floor(MAX_BOUND_VARIABLES / width));
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

const tuple = (n: number) => `(${Array(n).fill('?').join(', ')})`;

/**
 * The statements that write `changes`: membership rows first (a changed collection is
 * rewritten whole, on the same keys), then inserts parents-first, updates, and the other
 * deletes children-first — each kind as multi-row statements.
 */
export function writeStatements(changes: CatalogChanges): Statement[] {
  const out: Statement[] = [];
  const remove = (name: TableName) => {
    const { table, key } = TABLES[name];
    const cols = columnsOf(table);
    const keys = key.map((k) => cols.get(k)!);
    const target = keys.length === 1 ? `"${keys[0]!.name}"` : `(${keys.map((k) => `"${k.name}"`).join(', ')})`;
    for (const rows of slices(changes[name].delete, keys.length)) {
      // `id IN (?, ?)`; `IN ((?, ?))` would be one row value, which SQLite refuses for two or more rows
      const list = keys.length === 1 ? tuple(rows.length) : `(VALUES ${Array(rows.length).fill(tuple(keys.length)).join(', ')})`;
      out.push({
        sql: `DELETE FROM "${getTableName(table)}" WHERE ${target} IN ${list}`,
        args: rows.flatMap((row) => key.map((k) => value(cols.get(k)!.column, row[k]))),
      });
    }
  };

  remove('collectionProducts');
  for (const name of TABLE_ORDER) out.push(...insertStatements(TABLES[name].table, changes[name].insert as never[]));
  for (const name of TABLE_ORDER) {
    const rows = changes[name].update;
    if (rows.length === 0) continue;
    const { table, key } = TABLES[name];
    const cols = columnsOf(table);
    const set = [...cols.keys()].filter((k) => !key.includes(k as never) && rows[0]![k] !== undefined);
    // VALUES names its columns column1, column2 …: the keys first, then the columns set
    const all = [...key, ...set];
    const name_ = getTableName(table);
    const assign = set.map((k, i) => `"${cols.get(k)!.name}" = v.column${key.length + i + 1}`).join(', ');
    const match = key.map((k, i) => `"${name_}"."${cols.get(k)!.name}" = v.column${i + 1}`).join(' AND ');
    for (const slice of slices(rows, all.length)) {
      out.push({
        sql: `UPDATE "${name_}" SET ${assign} FROM (VALUES ${Array(slice.length).fill(tuple(all.length)).join(', ')}) AS v WHERE ${match}`,
        args: slice.flatMap((row) => all.map((k) => value(cols.get(k)!.column, row[k]))),
      });
    }
  }
  for (const name of [...TABLE_ORDER].reverse()) if (name !== 'collectionProducts') remove(name);
  return out;
}

/** SQLite's bound-variable limit allows this many ids per IN list, with room to spare. */
const ID_SLICE = 10_000;

/**
 * The question for variants an import drops from a product it keeps: still named by a
 * restock signup, a checkout line or a bundle item the import keeps (all but those it
 * rewrites)? Such a variant cannot be removed.
 */
function inUseChecks(ids: string[]): Statement[] {
  const statements: Statement[] = [];
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE);
    const list = tuple(slice.length);
    statements.push(
      {
        sql: `SELECT variant_id AS id, 'a restock signup' AS what, NULL AS bundle, NULL AS position FROM stock_subscriptions WHERE variant_id IN ${list}`,
        args: slice,
      },
      {
        sql: `SELECT variant_id AS id, 'a checkout session' AS what, NULL AS bundle, NULL AS position FROM checkout_session_lines WHERE variant_id IN ${list}`,
        args: slice,
      },
      {
        sql: `SELECT variant_id AS id, 'a bundle' AS what, bundle_id AS bundle, position FROM bundle_items WHERE variant_id IN ${list}`,
        args: slice,
      },
    );
  }
  return statements;
}

/**
 * The question for variants of deleted products: does something the shop must keep still
 * need one? A restock signup not yet notified or withdrawn (a promise to a shopper), a
 * checkout session open or awaiting payment (it would be charged for what is gone), another
 * product's bundle. A completed or expired session keeps its own copy of each line (title,
 * price), so it does not hold a product back.
 */
function heldChecks(ids: string[]): Statement[] {
  const statements: Statement[] = [];
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE);
    const list = tuple(slice.length);
    statements.push(
      {
        sql: `SELECT variant_id AS id, 'a restock signup not yet notified' AS what, NULL AS bundle, NULL AS position FROM stock_subscriptions WHERE variant_id IN ${list} AND status IN ('pending_confirmation', 'active')`,
        args: slice,
      },
      {
        sql: `SELECT l.variant_id AS id, 'a checkout session ' || CASE s.status WHEN 'open' THEN 'still open' ELSE 'awaiting payment' END AS what, NULL AS bundle, NULL AS position FROM checkout_session_lines l JOIN checkout_sessions s ON s.id = l.session_id WHERE l.variant_id IN ${list} AND s.status IN ('open', 'payment_pending')`,
        args: slice,
      },
      {
        sql: `SELECT variant_id AS id, 'a bundle of another product' AS what, bundle_id AS bundle, position FROM bundle_items WHERE variant_id IN ${list}`,
        args: slice,
      },
    );
  }
  return statements;
}

/** Variant id → what still needs it, leaving out bundle items the write itself deletes or re-points (`rewritten`). */
function readInUse(results: Result[], rewritten: Set<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const result of results) {
    for (const r of result.rows) {
      if (r.bundle !== null && rewritten.has(`${String(r.bundle)}\u0000${String(r.position)}`)) continue;
      out.set(String(r.id), String(r.what));
    }
  }
  return out;
}

/** The rest of a deleted product's restock signups (notified or withdrawn), and their mail links. */
function closedSignupDeletes(ids: string[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE);
    const list = tuple(slice.length);
    out.push(
      {
        sql: `DELETE FROM subscription_tokens WHERE kind = 'stock' AND subscription_id IN (SELECT id FROM stock_subscriptions WHERE variant_id IN ${list})`,
        args: slice,
      },
      { sql: `DELETE FROM stock_subscriptions WHERE variant_id IN ${list}`, args: slice },
    );
  }
  return out;
}

/** Bundle items the import deletes or re-points: a variant they name may go. */
function rewrittenBundleItems(changes: CatalogChanges): Set<string> {
  const key = (r: Record<string, unknown>) => `${String(r.bundleId)}\u0000${String(r.position)}`;
  return new Set([...changes.bundleItems.delete, ...changes.bundleItems.update].map(key));
}
