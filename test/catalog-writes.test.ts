import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, execute, openDatabase, type Database } from '@/db';
import { createCheckoutSession } from '@/lib/commerce/checkout';
import { CatalogBusyError, deleteSource, documentSource, exportCatalog, importCatalog, stockSource } from '@/lib/commerce/catalog/transfer';
import { STAGE_LEASE_MS, stagingOf } from '@/lib/commerce/catalog/transfer/apply';
import { planImport } from '@/lib/commerce/catalog/transfer/plan';
import { detailsLoader, loadCatalogIndex, loadTransferSite } from '@/lib/commerce/catalog/transfer/state';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { contentDigest, freshDatabase, type TestDatabase } from './support/database';
import { failingWrites, longestLock, overNetwork, type Statement } from './support/network-client';

// Imports and stock commands against a database a network away (docs/catalog.md, "How an
// import is written"): every request costs LATENCY, and a write transaction holds the lock
// across its round trips, as on a remote libSQL server.
const LATENCY = 20;
/** What a checkout on another instance may wait for the lock before it fails (503). */
const CHECKOUT_WAIT_MS = 2_000;

let t: TestDatabase;
let original: CatalogDocument;
const others: Database[] = [];

beforeAll(async () => {
  t = await freshDatabase({ seed: { products: 200 } });
  original = await exportCatalog(t.database, 'demo');
});

afterAll(() => {
  for (const other of others) closeDatabase(other);
});

/** Another instance of the shop on the same database. */
function anotherInstance(): Database {
  const other = openDatabase({ url: t.url, busyTimeoutMs: CHECKOUT_WAIT_MS });
  others.push(other);
  return other;
}

/** A checkout session of one line on `database`: 'created', or the error's code. */
const checkoutOutcome = (database: Database, context: SiteContext, variantId: string): Promise<string> =>
  createCheckoutSession(database, context, { lines: [{ variantId, quantity: 1 }] }, { ttlSeconds: 600 }).then(
    () => 'created',
    (error: unknown) => String((error as { code?: unknown }).code ?? error),
  );

/** The benchmark catalog's products (db/seed/bench.ts): their handles end in their number. */
const isBench = (handle: string) => /-\d+$/.test(handle);

const clone = (doc: CatalogDocument): CatalogDocument => JSON.parse(JSON.stringify(doc)) as CatalogDocument;

/** The first `n` bench products with a new Swedish title and stock, tagged so each call changes them again. */
function changed(doc: CatalogDocument, n: number, tag: string): CatalogDocument {
  const out = clone(doc);
  for (const p of out.products.filter((p) => isBench(p.handle)).slice(0, n)) {
    p.texts['sv-SE']!.title = `${p.texts['sv-SE']!.title.replace(/ \(.*\)$/, '')} (${tag})`;
    for (const v of p.variants) v.stock = { policy: 'deny', lowStockThreshold: 5, ...v.stock, quantity: (v.stock?.quantity ?? 0) + 1 };
  }
  return out;
}

/** `count` new products, copies of a bench product under new handles and SKUs. */
function withNewProducts(doc: CatalogDocument, count: number, tag: string): CatalogDocument {
  const out = clone(doc);
  const model = out.products.find((p) => isBench(p.handle) && p.bundles.length === 0)!;
  for (let i = 0; i < count; i++) {
    const p = JSON.parse(JSON.stringify(model)) as typeof model;
    p.handle = `${tag}-${i}`;
    for (const v of p.variants) v.sku = `${tag.toUpperCase()}-${i}-${v.sku}`;
    out.products.push(p);
  }
  return out;
}

describe('how an import is written over a network', () => {
  it('sends a 200-product change as a few requests, holding the lock only while the server writes', async () => {
    const doc = changed(original, 200, 'v2');
    // a dropped variant: the in-use check runs inside the write, one request more
    const dropped = doc.products.find(
      (p) =>
        isBench(p.handle) &&
        p.variants.length > 1 &&
        p.bundles.length === 0 &&
        !doc.products.some((q) => q.bundles.some((b) => b.items.some((i) => p.variants.some((v) => v.sku === i.sku)))),
    )!;
    const gone = dropped.variants.pop()!;
    dropped.options = dropped.options.map((o) => ({
      ...o,
      values: o.values.filter((value) => dropped.variants.some((v) => v.options[o.name] === value)),
    }));
    for (const texts of Object.values(dropped.texts)) {
      for (const [name, optionTexts] of Object.entries(texts.options ?? {})) {
        for (const value of Object.keys(optionTexts.values ?? {})) {
          if (!dropped.options.find((o) => o.name === name)!.values.includes(value)) delete optionTexts.values![value];
        }
      }
    }

    const { database, log } = overNetwork(t.database, LATENCY);
    const result = await importCatalog(database, documentSource(doc), { siteHandle: 'demo' });
    expect(result.ok && result.plan.products.updated).toBe(200);
    expect(result.ok && result.plan.variants.removed).toBe(1);
    // row by row this was ~1,300 requests, the lock held for all of their round trips
    expect(log.writeRequests).toBeLessThanOrEqual(4);
    const lock = longestLock(log);
    // What the lock costs over a network is its round trips (timed in npm run bench:catalog -- --latency).
    expect(lock.requests).toBeLessThanOrEqual(4);
    const [row] = (await execute(t.database, { sql: 'SELECT count(*) AS n FROM product_variants WHERE sku = ?', args: [gone.sku] })).rows;
    expect(Number(row!.n)).toBe(0);
    original = await exportCatalog(t.database, 'demo');
  });

  it('sends a stock command as one request', async () => {
    const skus = original.products
      .filter((p) => isBench(p.handle))
      .slice(0, 20)
      .map((p) => p.variants[0]!.sku);
    const { database, log } = overNetwork(t.database, LATENCY);
    const result = await importCatalog(database, stockSource(skus.map((sku, i) => ({ sku, quantity: 1000 + i }))), { siteHandle: 'demo' });
    expect(result.ok && result.plan.variants.updated).toBe(20);
    expect(log.writeRequests).toBe(1);
    expect(longestLock(log).networkMs).toBe(0);
  });

  it('lets checkouts on another instance through while a large change is written', async () => {
    const other = anotherInstance();
    const context = (await authenticateCredential(other, (await createCredential(other, { siteHandle: 'demo', scope: 'core' })).token))!;
    const sku = original.products.find((p) => p.handle === 'fjord-ceramic-mug')!.variants[0]!.sku;
    const variantId = String((await execute(other, { sql: 'SELECT id FROM product_variants WHERE sku = ?', args: [sku] })).rows[0]!.id);

    const { database } = overNetwork(t.database, LATENCY);
    let importing = true;
    const imported = importCatalog(database, documentSource(withNewProducts(changed(original, 200, 'v3'), 100, 'checkout-run')), {
      siteHandle: 'demo',
    }).finally(() => (importing = false));
    const outcomes: string[] = [];
    while (importing) {
      outcomes.push(await checkoutOutcome(other, context, variantId));
    }
    const result = await imported;
    expect(result.ok && result.plan.products).toMatchObject({ created: 100, updated: 200 });
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o !== 'created')).toEqual([]);
    original = await exportCatalog(t.database, 'demo');
  });

  it('never shows a reader on another instance half of an import', async () => {
    const other = anotherInstance();
    const siteId = String((await execute(other, "SELECT id FROM sites WHERE handle = 'demo'")).rows[0]!.id);
    // one statement: one snapshot
    const observe = async () => {
      const { rows } = await execute(other, {
        sql: `SELECT (SELECT count(*) FROM products WHERE site_id = ?1) AS products, (SELECT count(*) FROM product_variants WHERE site_id = ?1) AS variants,
          (SELECT count(*) FROM product_translations WHERE title LIKE '%(v5)') AS retitled, (SELECT catalog_version FROM sites WHERE id = ?1) AS version`,
        args: [siteId],
      });
      return JSON.stringify([rows[0]!.products, rows[0]!.variants, rows[0]!.retitled]);
    };
    const before = await observe();
    const { database } = overNetwork(t.database, LATENCY);
    let importing = true;
    const imported = importCatalog(database, documentSource(withNewProducts(changed(original, 200, 'v5'), 50, 'reader-run')), {
      siteHandle: 'demo',
    }).finally(() => (importing = false));
    const seen = new Set<string>();
    while (importing) {
      seen.add(await observe());
      // a local read answers without leaving the microtask queue: let the import's timers run
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = await imported;
    expect(result.ok && result.applied).toBe(true);
    const after = await observe();
    expect(after).not.toBe(before);
    expect([...seen].filter((s) => s !== before && s !== after)).toEqual([]);
    original = await exportCatalog(t.database, 'demo');
  });

  it('leaves the catalog as it was when the write fails at its last product', async () => {
    const doc = withNewProducts(changed(original, 200, 'v4'), 20, 'failing-run');
    const last = doc.products
      .filter((p) => isBench(p.handle))
      .slice(0, 200)
      .at(-1)!;
    const lastId = String(
      (await execute(t.database, { sql: 'SELECT id FROM products WHERE handle = ?', args: [last.handle] })).rows[0]!.id,
    );
    // the last product's texts are among the last rows written
    await execute(
      t.database,
      `CREATE TRIGGER fail_last_texts BEFORE UPDATE ON product_translations WHEN NEW.product_id = '${lastId}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    try {
      const before = await contentDigest(t.database);
      const { database, log } = overNetwork(t.database, LATENCY);
      await expect(importCatalog(database, documentSource(doc), { siteHandle: 'demo' })).rejects.toThrow(/injected failure/);
      expect(log.writeRequests).toBeGreaterThan(0);
      expect(await contentDigest(t.database)).toBe(before);
    } finally {
      await execute(t.database, 'DROP TRIGGER fail_last_texts');
    }
  });

  it('deletes 50 products as a few requests too, the check of what still needs them inside the write', async () => {
    const named = new Set(original.products.flatMap((p) => p.bundles.flatMap((b) => b.items.map((i) => i.sku))));
    const handles = original.products
      .filter((p) => isBench(p.handle) && p.variants.every((v) => !named.has(v.sku)))
      .slice(-50)
      .map((p) => p.handle);
    expect(handles).toHaveLength(50);
    const { database, log } = overNetwork(t.database, LATENCY);
    const result = await importCatalog(database, deleteSource(handles), { siteHandle: 'demo' });
    expect(result.ok && result.plan.products.removed).toBe(50);
    // open, the question, the batch, the commit: however many rows go
    expect(log.writeRequests).toBeLessThanOrEqual(4);
    expect(longestLock(log).requests).toBeLessThanOrEqual(4);
    const left = await execute(t.database, {
      sql: `SELECT count(*) AS n FROM products WHERE handle IN (${handles.map(() => '?').join(', ')})`,
      args: handles,
    });
    expect(Number(left.rows[0]!.n)).toBe(0);
    original = await exportCatalog(t.database, 'demo');
  });
});

/** Rows of new products written ahead per request in these tests: a few dozen products each. */
const STAGE_ROWS = 1_000;

/** What a shopper on another instance sees of the catalog, as one snapshot: published products, their variants and prices, and what search finds. */
async function shopperView(database: Database): Promise<string> {
  const { rows } = await execute(database, {
    sql: `SELECT (SELECT count(*) FROM products WHERE status = 'published') AS products,
      (SELECT count(*) FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.status = 'published') AS variants,
      (SELECT count(*) FROM variant_prices r JOIN product_variants v ON v.id = r.variant_id JOIN products p ON p.id = v.product_id WHERE p.status = 'published') AS prices,
      (SELECT group_concat(handle) FROM (SELECT handle FROM products WHERE status = 'published' ORDER BY handle DESC LIMIT 3)) AS last`,
    args: [],
  });
  return JSON.stringify(rows[0]);
}

const stagedCount = async (database: Database) =>
  Number((await execute(database, 'SELECT count(*) AS n FROM catalog_import_staged')).rows[0]!.n);

/** Is this batch an import's last commit, the one that publishes what it wrote ahead? */
const publishes = (statements: Statement[]) =>
  statements.some((s) => typeof s !== 'string' && s.sql.startsWith("UPDATE products SET status = 'published'"));

describe('a large import, its new products written ahead', () => {
  it('splits the new products into chunks of whole products, drafts until the last commit publishes them', async () => {
    const doc = withNewProducts(original, 90, 'chunked');
    doc.products.find((p) => p.handle === 'chunked-1')!.status = 'draft';
    const manual = doc.collections.find((c) => !c.rules && c.products)!;
    manual.products!.push('chunked-0', 'chunked-2');
    const site = await loadTransferSite(t.database, 'demo');
    const { changes } = await planImport({
      site,
      index: await loadCatalogIndex(t.database, site.id),
      loadDetails: detailsLoader(t.database),
      products: doc.products,
      collections: doc.collections,
      markets: doc.markets ?? null,
      prune: false,
      remove: new Set(),
      now: Date.now(),
    });
    const staging = stagingOf(changes, STAGE_ROWS)!;
    expect(staging.chunks.length).toBeGreaterThan(2);
    const newIds = new Set(changes.products.insert.map((p) => p.id));
    expect(newIds.size).toBe(90);
    const seen = new Map<unknown, number>();
    for (const chunk of staging.chunks) {
      const rows = Object.values(chunk).reduce((n, c) => n + c.insert.length + c.update.length + c.delete.length, 0);
      expect(rows).toBeLessThanOrEqual(STAGE_ROWS);
      for (const p of chunk.products.insert) {
        seen.set(p.id, (seen.get(p.id) ?? 0) + 1);
        expect(p.status).toBe('draft');
      }
      // a chunk holds its products' own rows, and nothing else
      const own = new Set(chunk.products.insert.map((p) => p.id));
      const ownVariants = new Set(chunk.productVariants.insert.map((v) => v.id));
      for (const r of [...chunk.productVariants.insert, ...chunk.productTranslations.insert, ...chunk.productImages.insert])
        expect(own.has(r.productId)).toBe(true);
      for (const r of [...chunk.variantPrices.insert, ...chunk.inventoryLevels.insert]) expect(ownVariants.has(r.variantId)).toBe(true);
      expect(chunk.collectionProducts.insert).toEqual([]);
      expect(chunk.bundles.insert).toEqual([]);
    }
    expect([...seen.keys()].sort()).toEqual([...newIds].sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // every row of the change is written once: ahead, or in the last commit
    for (const table of Object.keys(changes) as (keyof typeof changes)[]) {
      const ahead = staging.chunks.reduce((n, c) => n + c[table].insert.length, 0);
      expect(ahead + staging.rest[table].insert.length).toBe(changes[table].insert.length);
    }
    expect(staging.rest.products.insert).toEqual([]);
    expect(staging.rest.collectionProducts.insert.some((m) => newIds.has(m.productId))).toBe(true);
    const draftId = changes.products.insert.find((p) => p.handle === 'chunked-1')!.id;
    expect(staging.publish).toHaveLength(89);
    expect(staging.publish).not.toContain(draftId);
    // a change whose new products fit in one chunk is written at once
    expect(stagingOf(changes, 1_000_000)).toBeNull();
  });

  it('shows shoppers on another instance all of it or none, and lets their checkouts through', async () => {
    const other = anotherInstance();
    const context = (await authenticateCredential(other, (await createCredential(other, { siteHandle: 'demo', scope: 'core' })).token))!;
    const sku = original.products.find((p) => p.handle === 'fjord-ceramic-mug')!.variants[0]!.sku;
    const variantId = String((await execute(other, { sql: 'SELECT id FROM product_variants WHERE sku = ?', args: [sku] })).rows[0]!.id);
    const before = await shopperView(other);

    const { database, log } = overNetwork(t.database, LATENCY);
    let importing = true;
    const imported = importCatalog(database, documentSource(withNewProducts(changed(original, 20, 'v6'), 120, 'staged-run')), {
      siteHandle: 'demo',
      stageRows: STAGE_ROWS,
    }).finally(() => (importing = false));
    const views = new Set<string>();
    const outcomes: string[] = [];
    let stagedSeen = 0;
    while (importing) {
      views.add(await shopperView(other));
      stagedSeen = Math.max(stagedSeen, await stagedCount(other));
      outcomes.push(await checkoutOutcome(other, context, variantId));
    }
    const result = await imported;
    expect(result.ok && result.plan.products).toMatchObject({ created: 120, updated: 20 });
    const after = await shopperView(other);
    expect(after).not.toBe(before);
    expect([...views].filter((v) => v !== before && v !== after)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o !== 'created')).toEqual([]);
    // written ahead in several requests, each one batch, then the last commit
    expect(stagedSeen).toBeGreaterThan(0);
    expect(log.locks.length).toBeGreaterThan(3);
    expect(log.locks.every((lock) => lock.requests === 1)).toBe(true);
    expect(await stagedCount(t.database)).toBe(0);
    const published = await execute(
      t.database,
      "SELECT count(*) AS n FROM products WHERE handle LIKE 'staged-run-%' AND status = 'published'",
    );
    expect(Number(published.rows[0]!.n)).toBe(120);
    original = await exportCatalog(t.database, 'demo');
  });

  it('deletes what it wrote ahead when its last commit fails', async () => {
    const doc = withNewProducts(changed(original, 20, 'v7'), 60, 'failing-stage');
    const before = await shopperView(t.database);
    const { database } = overNetwork(t.database, LATENCY);
    await expect(
      importCatalog(failingWrites(database, publishes), documentSource(doc), { siteHandle: 'demo', stageRows: STAGE_ROWS }),
    ).rejects.toThrow(/connection lost/);
    expect(await shopperView(t.database)).toBe(before);
    expect(await stagedCount(t.database)).toBe(0);
    const left = await execute(t.database, "SELECT count(*) AS n FROM products WHERE handle LIKE 'failing-stage-%'");
    expect(Number(left.rows[0]!.n)).toBe(0);
    expect(await exportCatalog(t.database, 'demo')).toEqual(original);
  });

  it('keeps out of the catalog what an import that died wrote ahead, and deletes it once its lease is over', async () => {
    const doc = withNewProducts(original, 80, 'died');
    const before = await shopperView(t.database);
    await expect(
      importCatalog(
        failingWrites(t.database, (_, n) => n > 2),
        documentSource(doc),
        { siteHandle: 'demo', stageRows: STAGE_ROWS },
      ),
    ).rejects.toThrow(/connection lost/);
    const left = await stagedCount(t.database);
    expect(left).toBeGreaterThan(0);
    // shoppers and the merchant's export see none of it
    expect(await shopperView(t.database)).toBe(before);
    expect(await exportCatalog(t.database, 'demo')).toEqual(original);

    // within the lease it may be an import still running: the same products are refused with a reason
    await expect(importCatalog(t.database, documentSource(doc), { siteHandle: 'demo', stageRows: STAGE_ROWS })).rejects.toThrow(
      CatalogBusyError,
    );
    expect(await stagedCount(t.database)).toBe(left);

    // after it, the next import deletes them first, and writes its own
    const result = await importCatalog(t.database, documentSource(doc), {
      siteHandle: 'demo',
      stageRows: STAGE_ROWS,
      now: Date.now() + STAGE_LEASE_MS + 60_000,
    });
    expect(result.ok && result.plan.products.created).toBe(80);
    expect(await stagedCount(t.database)).toBe(0);
    const published = await execute(t.database, "SELECT count(*) AS n FROM products WHERE handle LIKE 'died-%' AND status = 'published'");
    expect(Number(published.rows[0]!.n)).toBe(80);
    original = await exportCatalog(t.database, 'demo');
  });
});
