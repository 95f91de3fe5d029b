import type * as schema from '../schema';
import { CARE, CLOSINGS, KINDS, type Text3 } from './kinds';
import { HOUR_MS, SEED_BASE_TIME, prng, randInt, seedId, slugify } from './ids';
import { collectionImage, productImages } from './images';
import { optionTexts } from './option-texts';
import { SALE_TIER_STEP, tier } from './pricing';
import { copyLanguage, type MarketId } from './sites';
import type { BundleDef, CollectionDef, OptionDef, ProductDef, StockSpec } from './types';

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export type CatalogRows = {
  products: Insert<typeof schema.products>[];
  productTranslations: Insert<typeof schema.productTranslations>[];
  productImages: Insert<typeof schema.productImages>[];
  productVariants: Insert<typeof schema.productVariants>[];
  variantPrices: Insert<typeof schema.variantPrices>[];
  inventoryLevels: Insert<typeof schema.inventoryLevels>[];
  bundles: Insert<typeof schema.bundles>[];
  bundleItems: Insert<typeof schema.bundleItems>[];
  bundlePrices: Insert<typeof schema.bundlePrices>[];
  collections: Insert<typeof schema.collections>[];
  collectionTranslations: Insert<typeof schema.collectionTranslations>[];
  collectionProducts: Insert<typeof schema.collectionProducts>[];
};

export type CatalogSite = {
  id: string;
  handle: string;
  name: string;
  /** Prefix of every SKU of the Site (SKUs are unique per Site). */
  skuPrefix: string;
  markets: MarketId[];
  locales: string[];
};

export const LOW_STOCK_THRESHOLD = 5;

/** Every combination of option values, in option order: [[White, S], [White, M], …]. */
function combinations(options: OptionDef[]): string[][] {
  return options.reduce<string[][]>((acc, o) => acc.flatMap((combo) => o.values.map((v) => [...combo, v])), [[]]);
}

function skuPart(value: string): string {
  return slugify(value).replace(/-/g, '').toUpperCase().slice(0, 4) || 'X';
}

/** Generated stock: mostly plenty, some running low, a few sold out. Deterministic per SKU. */
function generatedStock(siteHandle: string, sku: string): Required<StockSpec> {
  const next = prng(`${siteHandle}:stock:${sku}`);
  const roll = next();
  if (roll < 0.04) return { quantity: 0, policy: 'deny' };
  if (roll < 0.12) return { quantity: randInt(next, 1, LOW_STOCK_THRESHOLD), policy: 'deny' };
  return { quantity: randInt(next, LOW_STOCK_THRESHOLD + 1, 120), policy: 'deny' };
}

export function emptyCatalog(): CatalogRows {
  return {
    products: [],
    productTranslations: [],
    productImages: [],
    productVariants: [],
    variantPrices: [],
    inventoryLevels: [],
    bundles: [],
    bundleItems: [],
    bundlePrices: [],
    collections: [],
    collectionTranslations: [],
    collectionProducts: [],
  };
}

/** Appends the rows of one Site's products (index = position in the Site's catalogue). */
export function addProducts(rows: CatalogRows, site: CatalogSite, defs: ProductDef[], firstIndex = 0): void {
  defs.forEach((def, offset) => {
    const index = firstIndex + offset;
    const productId = seedId('prod', site.handle, def.handle);
    const createdAt = SEED_BASE_TIME + index * HOUR_MS;
    const updatedAt = createdAt + ((index * 7) % 48) * HOUR_MS;
    rows.products.push({
      id: productId,
      siteId: site.id,
      handle: def.handle,
      status: def.status ?? 'published',
      options: def.options.map((o) => ({ name: o.name, values: [...o.values] })),
      featuredPosition: def.featured ?? null,
      createdAt,
      updatedAt,
    });

    const kind = KINDS[def.kind];
    const closing = CLOSINGS[index % CLOSINGS.length] ?? CLOSINGS[0];
    for (const locale of site.locales) {
      const lang = copyLanguage(locale);
      const title = def.title[lang];
      rows.productTranslations.push({
        productId,
        locale,
        title,
        description: [kind.line[lang], (kind.care ?? CARE[kind.category])[lang], closing?.[lang]].filter(Boolean).join(' '),
        seoTitle: `${title} | ${site.name}`,
        seoDescription: kind.line[lang],
        options: optionTexts(def.options, lang),
      });
    }

    productImages(def).forEach((image, i) =>
      rows.productImages.push({
        productId,
        position: i + 1,
        url: image.url,
        alt: image.alt.en,
        alts: inOtherLocales(site, image.alt),
        width: image.width,
        height: image.height,
      }),
    );

    const priceBy = def.options.findIndex((o) => o.name === def.priceBy);
    combinations(def.options).forEach((values, i) => {
      const sku = [site.skuPrefix, String(index + 1).padStart(3, '0'), ...values.map(skuPart)].join('-');
      const variantId = seedId('var', site.handle, sku);
      const title = values.length > 0 ? values.join(' / ') : 'Default';
      rows.productVariants.push({
        id: variantId,
        siteId: site.id,
        productId,
        sku,
        title,
        position: i + 1,
        options: Object.fromEntries(def.options.map((o, j) => [o.name, values[j] ?? ''])),
      });

      const step = priceBy >= 0 ? Math.max(0, def.options[priceBy]?.values.indexOf(values[priceBy] ?? '') ?? 0) : 0;
      const price = tier(def.tier + step);
      const compareAt = def.sale ? tier(def.tier + step + SALE_TIER_STEP) : null;
      for (const market of site.markets) {
        rows.variantPrices.push({
          variantId,
          marketId: market,
          amount: price[market],
          compareAtAmount: compareAt ? compareAt[market] : null,
        });
      }

      const stock = def.stock?.[title] ?? def.stock?.['*'] ?? generatedStock(site.handle, sku);
      rows.inventoryLevels.push({
        variantId,
        quantity: stock.quantity,
        lowStockThreshold: LOW_STOCK_THRESHOLD,
        policy: stock.policy ?? 'deny',
        updatedAt,
      });
    });
  });
}

/** Appends bundles; items name a product handle and a variant title of the same Site. */
export function addBundles(rows: CatalogRows, site: CatalogSite, defs: BundleDef[]): void {
  const variantIds = new Map<string, string>();
  const handleById = new Map(rows.products.map((p) => [p.id, p.handle]));
  for (const v of rows.productVariants) variantIds.set(`${handleById.get(v.productId)}|${v.title}`, v.id);

  const counts = new Map<string, number>();
  for (const def of defs) {
    const productId = seedId('prod', site.handle, def.productHandle);
    if (!handleById.has(productId)) throw new Error(`Bundle on unknown product ${def.productHandle}`);
    const position = (counts.get(productId) ?? 0) + 1;
    counts.set(productId, position);
    const bundleId = seedId('bun', site.handle, def.productHandle, position);
    rows.bundles.push({
      id: bundleId,
      productId,
      title: def.title,
      titles: def.titles ? inOtherLocales(site, { en: def.title, ...def.titles }) : null,
      position,
    });
    def.items.forEach((item, i) => {
      const variantId = variantIds.get(`${item.product}|${item.variant}`);
      if (!variantId) throw new Error(`Bundle item ${item.product} / ${item.variant} does not exist`);
      rows.bundleItems.push({ bundleId, position: i + 1, variantId, quantity: item.quantity });
    });
    for (const market of site.markets) rows.bundlePrices.push({ bundleId, marketId: market, amount: def.price[market] });
  }
}

/**
 * Appends collections with their members in stored order. `extraMembers` (the benchmark
 * catalogue) go after the hand-picked ones.
 */
export function addCollections(
  rows: CatalogRows,
  site: CatalogSite,
  defs: CollectionDef[],
  extraMembers: Map<string, string[]> = new Map(),
): void {
  const known = new Set(rows.products.map((p) => p.handle));
  defs.forEach((def, index) => {
    const collectionId = seedId('col', site.handle, def.handle);
    const image = collectionImage(def.handle, def.title);
    rows.collections.push({
      id: collectionId,
      siteId: site.id,
      handle: def.handle,
      status: 'published',
      position: index + 1,
      imageUrl: image?.url ?? null,
      imageAlt: image?.alt.en ?? null,
      imageAlts: image ? inOtherLocales(site, image.alt) : null,
      imageWidth: image?.width ?? null,
      imageHeight: image?.height ?? null,
      updatedAt: SEED_BASE_TIME + index * HOUR_MS,
    });
    for (const locale of site.locales) {
      const lang = copyLanguage(locale);
      rows.collectionTranslations.push({ collectionId, locale, title: def.title[lang], description: def.description[lang] });
    }
    [...def.members, ...(extraMembers.get(def.handle) ?? [])].forEach((handle, i) => {
      if (!known.has(handle)) throw new Error(`Collection ${def.handle} names unknown product ${handle}`);
      rows.collectionProducts.push({ collectionId, productId: seedId('prod', site.handle, handle), position: i + 1 });
    });
  });
}

/**
 * A text written in English (its main text), by locale for the Site's locales in other
 * languages: keys sorted, as an import stores them (an export of the seed then imports
 * unchanged); null when the Site has no other language.
 */
function inOtherLocales(site: CatalogSite, text: Text3): Record<string, string> | null {
  const entries = site.locales
    .flatMap((locale) => {
      const lang = copyLanguage(locale);
      return lang !== 'en' ? [[locale, text[lang]] as const] : [];
    })
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}
