import type { StatementTransaction } from './statements';

/**
 * Bulk upkeep of the product search index (migration 0010, scripts/search-triggers.mjs).
 *
 * Row by row, the triggers rewrite a product's documents on every change to it: an import of
 * a product with three variants and five translations would rewrite them nine times. Inside
 * `deferSearchIndex` the triggers only note which products changed, and before the work's
 * transaction commits each noted product is written once, by one INSERT … SELECT per table.
 * The flag is a row in the same transaction, so no other connection ever sees it, and what
 * commits is always indexed.
 */
export async function deferSearchIndex<T>(tx: StatementTransaction, work: () => Promise<T>): Promise<T> {
  await tx.execute(SEARCH_INDEX_DEFER);
  const result = await work();
  const noted = Number((await tx.execute('SELECT count(*) AS n FROM product_search_pending')).rows[0]?.n ?? 0);
  if (noted > 0) {
    for (const sql of SEARCH_INDEX_FLUSH) await tx.execute(sql);
    if (noted >= MERGE_FROM) for (const sql of SEARCH_INDEX_MERGE) await tx.execute(sql);
  }
  await tx.execute(SEARCH_INDEX_RESUME);
  return result;
}

/**
 * The same as statements, for a writer that sends its writes as one batch (which cannot
 * branch): DEFER first, then the writes, FLUSH (a no-op when nothing was noted), RESUME.
 */
export const SEARCH_INDEX_DEFER = 'INSERT INTO product_search_bulk (id) VALUES (1)';
export const SEARCH_INDEX_RESUME = 'DELETE FROM product_search_bulk';

const NOTED = 'SELECT product_id FROM product_search_pending';

/**
 * Documents go in rowid order: FTS5 flushes its in-memory buffer to a new segment whenever a
 * rowid is not above the last one, so 10,000 products in product-id order made ~50,000 tiny
 * segments (an import of 10,000 products: 14 s in the index alone, 0.9 s in rowid order).
 *
 * From this many products on, a flush merges each index into one segment afterwards: a bulk
 * write leaves many small segments, and a prefix query reads every one of them (on 10,000
 * products, `q=m`'s body prefix read 1.3 ms merged, 19 ms unmerged). Merging costs time in
 * proportion to the whole index (~0.8 s at 10,000 products), so small writes leave it to
 * FTS5's own incremental merging.
 */
export const MERGE_FROM = 500;

/** Each changed product's documents written again, in rowid order (see above). */
export const SEARCH_INDEX_FLUSH: string[] = [
  ...['product_search_text', 'product_search_words'].map(
    (table) =>
      `DELETE FROM ${table} WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (${NOTED}))`,
  ),
  `INSERT INTO product_search_text (rowid, extra) SELECT doc, extra FROM product_search_documents WHERE product_id IN (${NOTED}) ORDER BY doc`,
  `INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (${NOTED}) ORDER BY doc`,
  'DELETE FROM product_search_pending',
];

/**
 * Each index merged into one segment. It changes no answer, only how fast one is read, so
 * a writer that counts its lock time may run it in a transaction of its own afterwards.
 */
export const SEARCH_INDEX_MERGE: string[] = ['product_search_text', 'product_search_words'].map(
  (table) => `INSERT INTO ${table} (${table}) VALUES ('optimize')`,
);
