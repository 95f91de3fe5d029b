import { and, asc, count, eq, inArray, min, notExists } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import {
  bundleItems,
  bundlePrices,
  bundles,
  catalogImportStaged,
  collectionProducts,
  collections,
  collectionTranslations,
  inventoryLevels,
  marketLocales,
  markets,
  marketTranslations,
  productImages,
  products,
  productTranslations,
  productVariants,
  sites,
  variantPrices,
} from '@/db/schema';
import { DomainError } from '@/lib/platform/errors';

type Rows<T extends { $inferSelect: unknown }> = T['$inferSelect'][];

/**
 * What a whole-catalog check needs at once: every product and variant row of the Site (to
 * match handles and SKUs) and its collections. Small next to the rest.
 */
export type CatalogIndex = {
  products: Rows<typeof products>;
  productVariants: Rows<typeof productVariants>;
  collections: Rows<typeof collections>;
  collectionTranslations: Rows<typeof collectionTranslations>;
  collectionProducts: Rows<typeof collectionProducts>;
  /** Products an import has written ahead and not yet published (left out above): how many, and the oldest one's lease. */
  staged: { products: number; oldestAt: number | null };
};

/** The rest of some products' rows: texts, images, prices, stock, bundles. Read a slice at a time. */
export type ProductDetails = {
  productTranslations: Rows<typeof productTranslations>;
  productImages: Rows<typeof productImages>;
  variantPrices: Rows<typeof variantPrices>;
  inventoryLevels: Rows<typeof inventoryLevels>;
  bundles: Rows<typeof bundles>;
  bundleItems: Rows<typeof bundleItems>;
  bundlePrices: Rows<typeof bundlePrices>;
};

/** The rows of one Site's catalog, as stored: what export reads and import compares against. */
export type CatalogState = CatalogIndex & ProductDetails;

/** Reads the details of some products (and of some variants, wherever they are). */
export type DetailsLoader = (productIds: string[], variantIds: string[]) => Promise<ProductDetails>;

export type TransferSite = {
  id: string;
  handle: string;
  defaultMarketId: string;
  defaultLocale: string;
  catalogVersion: number;
  /** In the Site's market order. */
  markets: { id: string; currency: string }[];
  locales: Set<string>;
  /** The markets' names per locale, as stored. */
  marketTranslations: Rows<typeof marketTranslations>;
};

export async function loadTransferSite(database: DbOrTx, handle: string): Promise<TransferSite> {
  const [site] = await database.select().from(sites).where(eq(sites.handle, handle));
  if (!site) throw new DomainError('not_found', `No Site with handle "${handle}".`);
  const marketRows = await database
    .select({ id: markets.id, currency: markets.currency })
    .from(markets)
    .where(eq(markets.siteId, site.id))
    .orderBy(asc(markets.position), asc(markets.id));
  const localeRows = await database.select({ locale: marketLocales.locale }).from(marketLocales).where(eq(marketLocales.siteId, site.id));
  const names = await database.select().from(marketTranslations).where(eq(marketTranslations.siteId, site.id));
  return {
    id: site.id,
    handle: site.handle,
    defaultMarketId: site.defaultMarketId,
    defaultLocale: site.defaultLocale,
    catalogVersion: site.catalogVersion,
    markets: marketRows,
    locales: new Set(localeRows.map((l) => l.locale)),
    marketTranslations: names,
  };
}

/** SQLite's default limit on bound variables is 32766; id lists are read in slices below it. */
const SLICE = 10_000;

async function byIds<T>(ids: string[], read: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += SLICE) out.push(...(await read(ids.slice(i, i + SLICE))));
  return out;
}

export async function loadCatalogIndex(database: DbOrTx, siteId: string): Promise<CatalogIndex> {
  // An import's products written ahead are not the catalog yet: only its last commit makes them so.
  const notStaged = (productId: typeof products.id | typeof productVariants.productId) =>
    notExists(
      database
        .select({ productId: catalogImportStaged.productId })
        .from(catalogImportStaged)
        .where(eq(catalogImportStaged.productId, productId)),
    );
  const productRows = await database
    .select()
    .from(products)
    .where(and(eq(products.siteId, siteId), notStaged(products.id)))
    .orderBy(asc(products.handle));
  const variantRows = await database
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.siteId, siteId), notStaged(productVariants.productId)))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  const collectionRows = await database
    .select()
    .from(collections)
    .where(eq(collections.siteId, siteId))
    .orderBy(asc(collections.position), asc(collections.handle));
  const collectionIds = collectionRows.map((c) => c.id);
  const [staged] = await database
    .select({ products: count(), oldestAt: min(catalogImportStaged.stagedAt) })
    .from(catalogImportStaged)
    .where(eq(catalogImportStaged.siteId, siteId));
  return {
    staged: { products: staged?.products ?? 0, oldestAt: staged?.oldestAt ?? null },
    products: productRows,
    productVariants: variantRows,
    collections: collectionRows,
    collectionTranslations: await byIds(collectionIds, (ids) =>
      database.select().from(collectionTranslations).where(inArray(collectionTranslations.collectionId, ids)),
    ),
    collectionProducts: await byIds(collectionIds, (ids) =>
      database.select().from(collectionProducts).where(inArray(collectionProducts.collectionId, ids)),
    ),
  };
}

export function detailsLoader(database: DbOrTx): DetailsLoader {
  return async (productIds, variantIds) => {
    const bundleRows = await byIds(productIds, (ids) => database.select().from(bundles).where(inArray(bundles.productId, ids)));
    const bundleIds = bundleRows.map((b) => b.id);
    return {
      productTranslations: await byIds(productIds, (ids) =>
        database.select().from(productTranslations).where(inArray(productTranslations.productId, ids)),
      ),
      productImages: await byIds(productIds, (ids) => database.select().from(productImages).where(inArray(productImages.productId, ids))),
      variantPrices: await byIds(variantIds, (ids) => database.select().from(variantPrices).where(inArray(variantPrices.variantId, ids))),
      inventoryLevels: await byIds(variantIds, (ids) =>
        database.select().from(inventoryLevels).where(inArray(inventoryLevels.variantId, ids)),
      ),
      bundles: bundleRows,
      bundleItems: await byIds(bundleIds, (ids) => database.select().from(bundleItems).where(inArray(bundleItems.bundleId, ids))),
      bundlePrices: await byIds(bundleIds, (ids) => database.select().from(bundlePrices).where(inArray(bundlePrices.bundleId, ids))),
    };
  };
}

/** The ids of the products' own variants. */
export function variantIdsOf(index: CatalogIndex, productIds: Iterable<string>): string[] {
  const wanted = new Set(productIds);
  return index.productVariants.filter((v) => wanted.has(v.productId)).map((v) => v.id);
}

/** Every catalog row of the Site at once (small catalogs and tests; imports and exports read in slices). */
export async function loadCatalogState(database: DbOrTx, siteId: string): Promise<CatalogState> {
  const index = await loadCatalogIndex(database, siteId);
  const productIds = index.products.map((p) => p.id);
  return { ...index, ...(await detailsLoader(database)(productIds, variantIdsOf(index, productIds))) };
}

/** Products are read and compared this many at a time, so memory does not grow with the catalog. */
export const PRODUCT_SLICE = 500;

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
