import type { Transaction } from '@libsql/client';

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
export async function deferSearchIndex<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  await tx.execute('INSERT INTO product_search_bulk (id) VALUES (1)');
  const result = await work();
  await flushSearchIndex(tx);
  await tx.execute('DELETE FROM product_search_bulk');
  return result;
}

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
const MERGE_FROM = 500;

async function flushSearchIndex(tx: Transaction): Promise<void> {
  const noted = Number((await tx.execute('SELECT count(*) AS n FROM product_search_pending')).rows[0]?.n ?? 0);
  if (noted === 0) return;
  for (const table of ['product_search_text', 'product_search_words']) {
    await tx.execute(
      `DELETE FROM ${table} WHERE rowid IN (SELECT i.seq * 256 + l.slot FROM product_search_ids i, product_search_locales l WHERE i.product_id IN (${NOTED}))`,
    );
  }
  await tx.execute(`INSERT INTO product_search_text (rowid, title, extra) SELECT doc, title, extra FROM product_search_documents WHERE product_id IN (${NOTED}) ORDER BY doc`);
  await tx.execute(
    `INSERT INTO product_search_words (rowid, title, body) SELECT doc, title, body FROM product_search_documents WHERE product_id IN (${NOTED}) ORDER BY doc`,
  );
  await tx.execute('DELETE FROM product_search_pending');
  if (noted >= MERGE_FROM) {
    for (const table of ['product_search_text', 'product_search_words']) await tx.execute(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
  }
}
