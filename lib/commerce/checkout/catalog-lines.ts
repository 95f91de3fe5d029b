import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { inventoryLevels, productTranslations, productVariants, products, variantPrices } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import { idList, inIdList, prepared } from '@/db/prepared';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import type { StockLevel } from '../availability';
import { isPublished } from '../published';
import { displayedVariantTitle } from '../catalog/option-texts';
import { cacheable, VersionedMemo, versionKey } from '@/lib/platform/cache/memo';

/** A published variant of the Site as checkout sees it in one market. */
export type CatalogVariant = {
  variantId: string;
  productHandle: string;
  /** "Product title — Variant title" in the requested locale. */
  title: string;
  /** Minor units in the market's currency; null when the variant is not sold there. */
  unitPrice: number | null;
  level: StockLevel | null;
};

/**
 * Checkout lines as the catalog showed them at a catalog version and stock version, per
 * market and locale: everything a line takes from the catalog (title and price move the
 * catalog version, a stock level the stock version) bumps one of them when it changes, so a
 * variant read once is read again only after a change — made by any instance — or when it
 * ages out. Pricing a session then costs no catalog query while the
 * catalog stands still (see lib/platform/cache/memo.ts for why that is safe across instances).
 * Bounded: 4 keys, 10,000 variants each (a few MB at most).
 */
const linesAt = new VersionedMemo<CatalogVariant>(4, 10_000);

/**
 * Published variants of the Site by id, priced in one market. Unknown, unpublished and
 * other Sites' variants are simply absent: checkout cannot tell them apart, nor should it.
 * Inside a transaction (which may hold its own uncommitted changes) they are always read.
 */
export async function readCatalogVariants(
  database: DbOrTx,
  site: SiteContext['site'],
  marketId: string,
  locale: string,
  variantIds: string[],
): Promise<Map<string, CatalogVariant>> {
  const ids = [...new Set(variantIds)];
  if (ids.length === 0) return new Map();
  const where = { siteId: site.id, marketId, locale, fallbackLocale: site.defaultLocale };
  if (!cacheable(database)) return queryCatalogVariants(database, where, ids);
  // The catalog version alone would miss a quantity change that leaves the status alone.
  const key = `${versionKey(database, site)}.${site.stockVersion}|${marketId}|${locale}|${site.defaultLocale}`;
  return linesAt.many(key, ids, (missing) => queryCatalogVariants(database, where, missing));
}

async function queryCatalogVariants(
  database: DbOrTx,
  where: { siteId: string; marketId: string; locale: string; fallbackLocale: string },
  variantIds: string[],
): Promise<Map<string, CatalogVariant>> {
  const rows = await prepared(database, 'checkout.catalogVariants', catalogVariantsQuery).all({ ...where, variantIds: idList(variantIds) });
  return new Map(
    rows.map((r) => [
      r.variantId,
      // Shared by every request that prices this variant at this version: read-only.
      Object.freeze({
        variantId: r.variantId,
        productHandle: r.productHandle,
        title: lineTitle(
          r.title ?? r.fallbackTitle ?? r.productHandle,
          // the variant title in the locale, from the option texts of the row the title comes from
          displayedVariantTitle(r.variantTitle, r.variantOptions, r.productOptions, r.title !== null ? r.ownOptions : r.fallbackOptions),
        ),
        unitPrice: r.amount,
        level:
          r.quantity === null ? null : Object.freeze({ quantity: r.quantity, lowStockThreshold: r.lowStockThreshold!, policy: r.policy! }),
      }),
    ]),
  );
}

// The product's title in the locale, else in the Site's default locale (as loadTranslations chooses).
const ownText = alias(productTranslations, 'own_text');
const fallbackText = alias(productTranslations, 'fallback_text');

function catalogVariantsQuery(database: DbOrTx) {
  const siteId = sql.placeholder('siteId');
  return database
    .select({
      variantId: productVariants.id,
      productHandle: products.handle,
      title: ownText.title,
      fallbackTitle: fallbackText.title,
      variantTitle: productVariants.title,
      variantOptions: productVariants.options,
      productOptions: products.options,
      ownOptions: ownText.options,
      fallbackOptions: fallbackText.options,
      amount: variantPrices.amount,
      quantity: inventoryLevels.quantity,
      lowStockThreshold: inventoryLevels.lowStockThreshold,
      policy: inventoryLevels.policy,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(variantPrices, and(eq(variantPrices.variantId, productVariants.id), eq(variantPrices.marketId, sql.placeholder('marketId'))))
    .leftJoin(inventoryLevels, eq(inventoryLevels.variantId, productVariants.id))
    .leftJoin(ownText, and(eq(ownText.productId, products.id), eq(ownText.locale, sql.placeholder('locale'))))
    .leftJoin(fallbackText, and(eq(fallbackText.productId, products.id), eq(fallbackText.locale, sql.placeholder('fallbackLocale'))))
    .where(and(eq(productVariants.siteId, siteId), inIdList(productVariants.id, 'variantIds'), isPublished(siteId)))
    .prepare();
}

/** A product without options has one placeholder variant ("Default"); its line is just the product. */
const PLACEHOLDER_VARIANT_TITLES = new Set(['', 'default', 'default title']);

function lineTitle(productTitle: string, variantTitle: string): string {
  const variant = variantTitle.trim();
  return PLACEHOLDER_VARIANT_TITLES.has(variant.toLowerCase()) || variant === productTitle ? productTitle : `${productTitle} — ${variant}`;
}
