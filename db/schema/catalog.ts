import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sites } from './sites';

export const products = sqliteTable(
  'products',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    handle: text().notNull(),
    status: text({ enum: ['draft', 'published', 'archived'] }).notNull(),
    /** JSON: [{ name, values[] }] in display order. */
    options: text({ mode: 'json' }).$type<{ name: string; values: string[] }[]>().notNull(),
    /** Featured on the storefront home, in this order (null = not featured). */
    featuredPosition: integer(),
    /** Who makes it, its kind and its tags, as a Shopify file has them: what automated collections' rules match. */
    vendor: text(),
    productType: text(),
    /** JSON: the product's tags, each once, as written; null = none. */
    tags: text({ mode: 'json' }).$type<string[]>(),
    createdAt: integer().notNull(),
    updatedAt: integer().notNull(),
  },
  (t) => [
    // product by handle
    uniqueIndex('products_site_handle_uq').on(t.siteId, t.handle),
    // product list and catalog: published products of a Site in handle order (cursor = handle)
    index('products_site_status_handle_idx').on(t.siteId, t.status, t.handle),
    // storefront snapshot: featured products
    index('products_site_featured_idx').on(t.siteId, t.featuredPosition),
  ],
);

export const productTranslations = sqliteTable(
  'product_translations',
  {
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    locale: text().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    seoTitle: text(),
    seoDescription: text(),
    /**
     * JSON: the product's option names and values in this locale, keyed by the stored
     * (canonical) ones: { Color: { name: 'Färg', values: { White: 'Vit' } } }. Null or a
     * missing entry: the Site's default locale's text, else the stored one.
     */
    options: text({ mode: 'json' }).$type<Record<string, { name?: string; values?: Record<string, string> }>>(),
  },
  (t) => [
    // a product's text in the requested locale (or the Site's default)
    primaryKey({ columns: [t.productId, t.locale] }),
  ],
);

export const productImages = sqliteTable(
  'product_images',
  {
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    url: text().notNull(),
    /** As written: shown in every locale `alts` has no entry for. */
    alt: text().notNull(),
    /** The alt text in other locales (locale → alt, keys sorted), or null. */
    alts: text({ mode: 'json' }).$type<Record<string, string>>(),
    width: integer().notNull(),
    height: integer().notNull(),
  },
  (t) => [
    // a product's images in order
    primaryKey({ columns: [t.productId, t.position] }),
  ],
);

export const productVariants = sqliteTable(
  'product_variants',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text().notNull(),
    title: text().notNull(),
    /** JSON: { optionName: value }. */
    options: text({ mode: 'json' }).$type<Record<string, string>>().notNull(),
    position: integer().notNull(),
  },
  (t) => [
    // a product's variants in order
    index('product_variants_product_pos_idx').on(t.productId, t.position),
    // availability and checkout: a variant by id within the Site
    index('product_variants_site_id_idx').on(t.siteId, t.id),
  ],
);

export const variantPrices = sqliteTable(
  'variant_prices',
  {
    variantId: text()
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    marketId: text().notNull(),
    /** Integer minor units in the market's currency. */
    amount: integer().notNull(),
    compareAtAmount: integer(),
  },
  (t) => [
    // a variant's price in a market
    primaryKey({ columns: [t.variantId, t.marketId] }),
  ],
);

export const inventoryLevels = sqliteTable('inventory_levels', {
  variantId: text()
    .primaryKey()
    .references(() => productVariants.id, { onDelete: 'cascade' }),
  quantity: integer().notNull(),
  lowStockThreshold: integer().notNull().default(5),
  /** deny: stop selling at 0; preorder: keep selling at 0 as a preorder; continue: never track. */
  policy: text({ enum: ['deny', 'preorder', 'continue'] })
    .notNull()
    .default('deny'),
  updatedAt: integer().notNull(),
});

export const bundles = sqliteTable(
  'bundles',
  {
    id: text().primaryKey(),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** As written: shown in every locale `titles` has no entry for. */
    title: text().notNull(),
    /** The title in other locales (locale → title, keys sorted), or null. */
    titles: text({ mode: 'json' }).$type<Record<string, string>>(),
    position: integer().notNull(),
  },
  (t) => [
    // a product's bundles
    index('bundles_product_idx').on(t.productId, t.position),
  ],
);

export const bundleItems = sqliteTable(
  'bundle_items',
  {
    bundleId: text()
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    variantId: text()
      .notNull()
      .references(() => productVariants.id),
    quantity: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bundleId, t.position] })],
);

export const bundlePrices = sqliteTable(
  'bundle_prices',
  {
    bundleId: text()
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    marketId: text().notNull(),
    amount: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bundleId, t.marketId] })],
);

export const collections = sqliteTable(
  'collections',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    handle: text().notNull(),
    status: text({ enum: ['draft', 'published'] })
      .notNull()
      .default('published'),
    /** Navigation order on the storefront. */
    position: integer().notNull(),
    imageUrl: text(),
    imageAlt: text(),
    /** The image's alt text in other locales (locale → alt, keys sorted), or null. */
    imageAlts: text({ mode: 'json' }).$type<Record<string, string>>(),
    imageWidth: integer(),
    imageHeight: integer(),
    /**
     * JSON: an automated collection's rules (`tag:wool`, `type:Sweaters`, `vendor:Nordlys`) and
     * whether a product must match all or any; null = members chosen by hand. The members of
     * one with rules are kept in collection_products by every import, like the others'.
     */
    rules: text({ mode: 'json' }).$type<{ match: 'all' | 'any'; conditions: string[] }>(),
    updatedAt: integer().notNull(),
  },
  (t) => [
    // collection by handle
    uniqueIndex('collections_site_handle_uq').on(t.siteId, t.handle),
    // collection list and navigation: a Site's collections in order
    index('collections_site_position_idx').on(t.siteId, t.position, t.id),
  ],
);

export const collectionTranslations = sqliteTable(
  'collection_translations',
  {
    collectionId: text()
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    locale: text().notNull(),
    title: text().notNull(),
    description: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.locale] })],
);

export const collectionProducts = sqliteTable(
  'collection_products',
  {
    collectionId: text()
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.productId] }),
    // collection members in stored order (cursor = position)
    uniqueIndex('collection_products_order_uq').on(t.collectionId, t.position),
    // a product's collections (its answer names them), and a product's delete cascading here
    index('collection_products_product_idx').on(t.productId),
  ],
);

/**
 * Products a large import has written ahead of its last commit (lib/commerce/catalog/transfer/
 * apply.ts), still unpublished. The import's last commit publishes them and removes their rows
 * here; an import that died before it leaves them, and the next import deletes them once
 * `stagedAt` is older than an import's lease.
 */
export const catalogImportStaged = sqliteTable(
  'catalog_import_staged',
  {
    productId: text()
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    siteId: text()
      .notNull()
      .references(() => sites.id),
    importId: text().notNull(),
    /** When the import last wrote a chunk: its lease. */
    stagedAt: integer().notNull(),
  },
  (t) => [
    // the import's own products, and the abandoned ones by age
    index('catalog_import_staged_import_idx').on(t.importId),
    index('catalog_import_staged_site_age_idx').on(t.siteId, t.stagedAt),
  ],
);
