import { readFileSync } from 'node:fs';
import type { InStatement, InValue, Transaction } from '@libsql/client';
import { getTableColumns, getTableName, is, SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from './client';
import * as schema from './schema';
import { deferSearchIndex } from './search-index';
import { addressBookRows } from './seed/addresses';
import { benchProducts } from './seed/bench';
import { addBundles, addCollections, addProducts, emptyCatalog, type CatalogRows, type CatalogSite } from './seed/build-catalog';
import { DEMO_BUNDLES, DEMO_COLLECTIONS, DEMO_PRODUCTS } from './seed/catalog-demo';
import { OUTLET_COLLECTIONS, OUTLET_PRODUCTS } from './seed/catalog-outlet';
import { SEED_BASE_TIME, seedId } from './seed/ids';
import { pickupPointRows } from './seed/pickup-points';
import { SEED_FLOWS, type MarketId } from './seed/sites';
import { settingsRows, siteLocales, type SettingsInput } from './site-settings';

/**
 * The deterministic demo (docs/operating.md, "The demo shop"): two Sites, `demo` and `outlet`, with the same
 * ids, texts, prices and stock on every run. `seedDatabase` wipes every table first.
 */
export type SeedOptions = {
  /** Extra generated products for benchmarks, on top of the normal demo (default 0). */
  products?: number;
  /** The hosted checkout base URL of both Sites. */
  checkoutBaseUrl?: string;
  /**
   * Reseeding a database in use (`db:seed --force`): keep every credential of the seeded
   * Sites, so a running storefront (and any integration) keeps working, and move each
   * Site's catalog version past the old one, so no cache takes the new catalog for the old.
   */
  keepCredentials?: boolean;
  /** false: the demo Site without products, bundles or collections, as a shop before its first catalog import. */
  demoCatalog?: boolean;
};

export type SeedSummary = {
  sites: {
    handle: string;
    id: string;
    products: number;
    publishedProducts: number;
    variants: number;
    collections: number;
  }[];
  shippingRates: number;
  addresses: number;
  pickupPoints: number;
  /** Rows inserted, all tables together. */
  rows: number;
};

/** The storefront's own hosted checkout, on whatever origin the API answers from. */
export const DEFAULT_CHECKOUT_BASE_URL = '/checkout';

/** SQLite allows 32766 bound variables per statement; stay clear of it. */
export const MAX_BOUND_VARIABLES = 30_000;

/** A Site's catalog, every row of it, children before parents (what a catalog test or bench empties). */
export const CATALOG_TABLES: SQLiteTable[] = [
  schema.catalogImportStaged,
  schema.bundleItems,
  schema.bundlePrices,
  schema.bundles,
  schema.collectionProducts,
  schema.collectionTranslations,
  schema.collections,
  schema.inventoryLevels,
  schema.variantPrices,
  schema.productImages,
  schema.productTranslations,
  schema.productVariants,
  schema.products,
];

/** Children before parents, so foreign keys hold at every step. Covers every table. */
export const WIPE_ORDER: SQLiteTable[] = [
  schema.orderLines,
  schema.orders,
  schema.paymentEvents,
  schema.checkoutSessionLines,
  schema.checkoutSessions,
  schema.subscriptionTokens,
  schema.stockSubscriptions,
  schema.newsletterSubscriptions,
  schema.consents,
  schema.outboxMessages,
  schema.idempotencyKeys,
  schema.rateLimitCounters,
  schema.analyticsEvents,
  schema.storedPages,
  schema.storedAnswers,
  ...CATALOG_TABLES,
  schema.shippingRates,
  schema.addressBook,
  schema.pickupPoints,
  schema.notificationFlows,
  schema.credentials,
  schema.siteTexts,
  schema.marketTranslations,
  schema.marketLocales,
  schema.marketCountries,
  schema.markets,
  // last but the Site: wiping what comes before writes what it touched here
  schema.catalogChanges,
  schema.sites,
];

/**
 * Not data, so not wiped: the auth epoch's one row is a counter the triggers bump (deleting
 * the credentials and Sites above bumps it too), and without it every request would read
 * its credential afresh (see lib/platform/auth/prepared-reads.ts).
 */
export const KEPT_BY_WIPE: SQLiteTable[] = [schema.authEpoch];

/** The Site id a handle gets from the seed. */
export function seededSiteId(handle: string): string {
  return seedId('site', handle);
}

export async function isDatabaseEmpty(database: Database): Promise<boolean> {
  const rows = await database.select({ id: schema.sites.id }).from(schema.sites).limit(1);
  return rows.length === 0;
}

export async function seedDatabase(database: Database, options: SeedOptions = {}): Promise<SeedSummary> {
  const extra = Math.max(0, Math.floor(options.products ?? 0));
  const checkoutBaseUrl = options.checkoutBaseUrl ?? DEFAULT_CHECKOUT_BASE_URL;

  const demo = buildSite(seedSettings('demo'), 'NLH', (rows, site) => {
    if (options.demoCatalog === false) return;
    addProducts(rows, site, DEMO_PRODUCTS);
    const bench = extra > 0 ? benchProducts(extra) : null;
    if (bench) addProducts(rows, site, bench.products, DEMO_PRODUCTS.length);
    addBundles(rows, site, DEMO_BUNDLES);
    addCollections(rows, site, DEMO_COLLECTIONS, bench?.members);
  });
  const outlet = buildSite(seedSettings('outlet'), 'NLO', (rows, site) => {
    addProducts(rows, site, OUTLET_PRODUCTS);
    addCollections(rows, site, OUTLET_COLLECTIONS);
  });
  const addresses = addressBookRows();
  const pickupPoints = pickupPointRows();

  // One write transaction on the raw libSQL client: a reseed is all-or-nothing, and
  // multi-row statements built here are several times faster than the query builder
  // for the 10k-product benchmark catalogue (~270k rows).
  let inserted = 0;
  const tx = await database.$client.transaction('write');
  try {
    const kept = options.keepCredentials ? await tx.execute('SELECT * FROM credentials') : null;
    const versions = options.keepCredentials ? await tx.execute('SELECT id, catalog_version FROM sites') : null;
    // The search index is written once per product at the end, not once per inserted row.
    await deferSearchIndex(tx, async () => {
      for (const table of WIPE_ORDER) await tx.execute(`DELETE FROM "${getTableName(table)}"`);
      for (const built of [demo, outlet]) inserted += await insertSite(tx, built, checkoutBaseUrl);
    });
    if (kept && versions) {
      const seeded = new Set([demo.site.id, outlet.site.id]);
      const columns = kept.columns.map((c) => `"${c}"`).join(', ');
      for (const row of kept.rows) {
        if (!seeded.has(String(row.site_id))) continue;
        await tx.execute({
          sql: `INSERT INTO credentials (${columns}) VALUES (${kept.columns.map(() => '?').join(', ')})`,
          args: kept.columns.map((c) => row[c] ?? null),
        });
      }
      for (const row of versions.rows) {
        await tx.execute({
          sql: 'UPDATE sites SET catalog_version = catalog_version + ? WHERE id = ?',
          args: [Number(row.catalog_version), String(row.id)],
        });
      }
    }
    inserted += await insertChunked(tx, schema.addressBook, addresses);
    inserted += await insertChunked(tx, schema.pickupPoints, pickupPoints);
    await tx.commit();
  } catch (error) {
    await tx.rollback();
    throw error;
  } finally {
    tx.close();
  }

  return {
    sites: [demo, outlet].map(({ def, site, rows }) => ({
      handle: def.handle,
      id: site.id,
      products: rows.products.length,
      publishedProducts: rows.products.filter((p) => p.status === 'published').length,
      variants: rows.productVariants.length,
      collections: rows.collections.length,
    })),
    shippingRates: [demo, outlet].reduce((n, b) => n + b.def.markets.reduce((k, m) => k + m.shipping.length, 0), 0),
    addresses: addresses.length,
    pickupPoints: pickupPoints.length,
    rows: inserted,
  };
}

/**
 * A seeded Site's settings: one settings document per Site (db/seed/sites/<handle>.json), the
 * same format `npm run site -- export` writes and `import` / `create` read (docs/site-settings.md).
 * Read as it is: test/site-settings.test.ts checks the files against the document's schema.
 */
type SiteDef = SettingsInput & { handle: keyof typeof SEED_FLOWS };

export function seedSettings(handle: keyof typeof SEED_FLOWS): SiteDef {
  return JSON.parse(readFileSync(new URL(`./seed/sites/${handle}.json`, import.meta.url), 'utf8')) as SiteDef;
}

type BuiltSite = { def: SiteDef; site: CatalogSite; rows: CatalogRows };

function buildSite(def: SiteDef, skuPrefix: string, fill: (rows: CatalogRows, site: CatalogSite) => void): BuiltSite {
  const site: CatalogSite = {
    id: seededSiteId(def.handle),
    handle: def.handle,
    name: def.name,
    skuPrefix,
    markets: def.markets.map((m) => m.id as MarketId),
    locales: siteLocales(def),
  };
  const rows = emptyCatalog();
  fill(rows, site);
  return { def, site, rows };
}

async function insertSite(tx: Transaction, { def, site, rows }: BuiltSite, checkoutBaseUrl: string): Promise<number> {
  const settings = settingsRows(def, { id: site.id, handle: def.handle });
  let n = 0;
  n += await insertChunked(tx, schema.sites, [
    { id: site.id, handle: def.handle, ...settings.site, checkoutBaseUrl, createdAt: SEED_BASE_TIME },
  ]);
  n += await insertChunked(tx, schema.markets, settings.markets);
  n += await insertChunked(tx, schema.marketCountries, settings.marketCountries);
  n += await insertChunked(tx, schema.marketLocales, settings.marketLocales);
  n += await insertChunked(tx, schema.marketTranslations, settings.marketTranslations);
  n += await insertChunked(tx, schema.siteTexts, settings.siteTexts);
  n += await insertChunked(
    tx,
    schema.notificationFlows,
    SEED_FLOWS[def.handle].map((f) => ({
      id: seedId('flow', def.handle, f.handle),
      siteId: site.id,
      handle: f.handle,
      kind: 'stock' as const,
      channel: f.channel,
      enabled: f.enabled,
      isDefault: f.isDefault,
    })),
  );
  n += await insertChunked(tx, schema.shippingRates, settings.shippingRates);

  n += await insertChunked(tx, schema.products, rows.products);
  n += await insertChunked(tx, schema.productTranslations, rows.productTranslations);
  n += await insertChunked(tx, schema.productImages, rows.productImages);
  n += await insertChunked(tx, schema.productVariants, rows.productVariants);
  n += await insertChunked(tx, schema.variantPrices, rows.variantPrices);
  n += await insertChunked(tx, schema.inventoryLevels, rows.inventoryLevels);
  n += await insertChunked(tx, schema.bundles, rows.bundles);
  n += await insertChunked(tx, schema.bundleItems, rows.bundleItems);
  n += await insertChunked(tx, schema.bundlePrices, rows.bundlePrices);
  n += await insertChunked(tx, schema.collections, rows.collections);
  n += await insertChunked(tx, schema.collectionTranslations, rows.collectionTranslations);
  n += await insertChunked(tx, schema.collectionProducts, rows.collectionProducts);
  return n;
}

/**
 * Multi-row INSERTs, as many rows per statement as the bound-variable limit allows.
 * Column names and value encoding (JSON, booleans, defaults) come from the Drizzle table,
 * exactly as the query builder would write them.
 */
export async function insertChunked<T extends SQLiteTable>(tx: Transaction, table: T, rows: T['$inferInsert'][]): Promise<number> {
  for (const statement of insertStatements(table, rows)) await tx.execute(statement);
  return rows.length;
}

/** The statements of `insertChunked`, for a writer that sends them in a batch. */
export function insertStatements<T extends SQLiteTable>(table: T, rows: T['$inferInsert'][]): InStatement[] {
  if (rows.length === 0) return [];
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => {
    if (is(column.default, SQL)) throw new Error(`Seed cannot insert SQL default of ${getTableName(table)}.${key}`);
    const fallback = column.default !== undefined ? column.default : (column.defaultFn?.() ?? null);
    return { key, column, name: column.keyAsName ? toSnakeCase(column.name) : column.name, fallback };
  });
  const head = `INSERT INTO "${getTableName(table)}" (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const size = Math.max(1, Math.floor(MAX_BOUND_VARIABLES / columns.length));
  const statements: InStatement[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const chunk = rows.slice(start, start + size);
    const args: InValue[] = [];
    for (const row of chunk) {
      const record = row as Record<string, unknown>;
      for (const { key, column, fallback } of columns) {
        const value = record[key] === undefined ? fallback : record[key];
        args.push(value === null || value === undefined ? null : (column.mapToDriverValue(value) as InValue));
      }
    }
    statements.push({ sql: head + Array(chunk.length).fill(tuple).join(', '), args });
  }
  return statements;
}
