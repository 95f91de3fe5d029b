import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import {
  bundleItems, bundlePrices, bundles, collectionProducts, collections, collectionTranslations, inventoryLevels,
  marketLocales, markets, productImages, products, productTranslations, productVariants, sites, variantPrices,
} from '@/db/schema';
import { DomainError } from '../../errors';

/** The rows of one Site's catalog, as stored: what export reads and import compares against. */
export type CatalogState = {
  products: (typeof products.$inferSelect)[];
  productTranslations: (typeof productTranslations.$inferSelect)[];
  productImages: (typeof productImages.$inferSelect)[];
  productVariants: (typeof productVariants.$inferSelect)[];
  variantPrices: (typeof variantPrices.$inferSelect)[];
  inventoryLevels: (typeof inventoryLevels.$inferSelect)[];
  bundles: (typeof bundles.$inferSelect)[];
  bundleItems: (typeof bundleItems.$inferSelect)[];
  bundlePrices: (typeof bundlePrices.$inferSelect)[];
  collections: (typeof collections.$inferSelect)[];
  collectionTranslations: (typeof collectionTranslations.$inferSelect)[];
  collectionProducts: (typeof collectionProducts.$inferSelect)[];
};

export type TransferSite = {
  id: string;
  handle: string;
  defaultMarketId: string;
  defaultLocale: string;
  catalogVersion: number;
  /** In the Site's market order. */
  markets: { id: string; currency: string }[];
  locales: Set<string>;
};

export async function loadTransferSite(database: DbOrTx, handle: string): Promise<TransferSite> {
  const [site] = await database.select().from(sites).where(eq(sites.handle, handle));
  if (!site) throw new DomainError('not_found', `No Site with handle "${handle}".`);
  const marketRows = await database.select({ id: markets.id, currency: markets.currency }).from(markets)
    .where(eq(markets.siteId, site.id)).orderBy(asc(markets.position), asc(markets.id));
  const localeRows = await database.select({ locale: marketLocales.locale }).from(marketLocales).where(eq(marketLocales.siteId, site.id));
  return {
    id: site.id, handle: site.handle, defaultMarketId: site.defaultMarketId, defaultLocale: site.defaultLocale,
    catalogVersion: site.catalogVersion, markets: marketRows, locales: new Set(localeRows.map((l) => l.locale)),
  };
}

/** SQLite's default limit on bound variables is 32766; id lists are read in slices below it. */
const SLICE = 10_000;

async function byIds<T>(ids: string[], read: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += SLICE) out.push(...(await read(ids.slice(i, i + SLICE))));
  return out;
}

/** Every catalog row of the Site, in a stable order (positions, then keys). */
export async function loadCatalogState(database: DbOrTx, siteId: string): Promise<CatalogState> {
  const productRows = await database.select().from(products).where(eq(products.siteId, siteId)).orderBy(asc(products.handle));
  const productIds = productRows.map((p) => p.id);
  const variantRows = await database.select().from(productVariants).where(eq(productVariants.siteId, siteId))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  const variantIds = variantRows.map((v) => v.id);
  const bundleRows = await byIds(productIds, (ids) => database.select().from(bundles).where(inArray(bundles.productId, ids)));
  bundleRows.sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : a.position - b.position));
  const bundleIds = bundleRows.map((b) => b.id);
  const collectionRows = await database.select().from(collections).where(eq(collections.siteId, siteId))
    .orderBy(asc(collections.position), asc(collections.handle));
  const collectionIds = collectionRows.map((c) => c.id);
  return {
    products: productRows,
    productTranslations: await byIds(productIds, (ids) => database.select().from(productTranslations).where(inArray(productTranslations.productId, ids))),
    productImages: await byIds(productIds, (ids) => database.select().from(productImages).where(inArray(productImages.productId, ids))),
    productVariants: variantRows,
    variantPrices: await byIds(variantIds, (ids) => database.select().from(variantPrices).where(inArray(variantPrices.variantId, ids))),
    inventoryLevels: await byIds(variantIds, (ids) => database.select().from(inventoryLevels).where(inArray(inventoryLevels.variantId, ids))),
    bundles: bundleRows,
    bundleItems: await byIds(bundleIds, (ids) => database.select().from(bundleItems).where(inArray(bundleItems.bundleId, ids))),
    bundlePrices: await byIds(bundleIds, (ids) => database.select().from(bundlePrices).where(inArray(bundlePrices.bundleId, ids))),
    collections: collectionRows,
    collectionTranslations: await byIds(collectionIds, (ids) => database.select().from(collectionTranslations).where(inArray(collectionTranslations.collectionId, ids))),
    collectionProducts: await byIds(collectionIds, (ids) => database.select().from(collectionProducts).where(inArray(collectionProducts.collectionId, ids))),
  };
}

/** Groups rows by a key, keeping their order. */
export function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
