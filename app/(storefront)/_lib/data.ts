import 'server-only';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import type { CatalogProduct, Product, Variant } from '@/lib/contract/catalog';
import { fetchCatalogPage, fetchCollection, fetchProduct, isSiteApiError, type Locality } from '@/lib/site-client';
import { locality } from './shop';

/** 404 from the API (unknown, draft or archived) is the shop's 404 too. */
async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (isSiteApiError(error, 'not_found')) notFound();
    throw error;
  }
}

/** A product in a market and language, read once per request (page, metadata and bundles share it). */
const productRead = cache((handle: string, market: string, locale: string) => fetchProduct(handle, { market, locale }));

/** The product in the given market and language; the shop's 404 when the API has none. */
export function productIn(handle: string, where: Required<Locality>): Promise<Product> {
  return orNotFound(productRead(handle, where.market, where.locale));
}

/** The product in the shopper's market and language (cookies). */
export const product = cache(async (handle: string) => productIn(handle, await locality()));

/**
 * A list page from `cursor`, and the cursor it was read from. A cursor the API refuses (a
 * stale link, a crawler's guess, a typo) shows the first page, as a plain list URL does:
 * a list page is never an error for its cursor alone.
 */
export async function listFrom<T>(cursor: string | undefined, read: (cursor?: string) => Promise<T>): Promise<{ page: T; cursor?: string }> {
  if (cursor === undefined) return { page: await read() };
  try {
    return { page: await read(cursor), cursor };
  } catch (error) {
    if (!isSiteApiError(error, 'validation_failed') || !error.errors.some((e) => e.pointer === '#/query/cursor')) throw error;
    return { page: await read() };
  }
}

/** A collection's page (the shop's 404 when the API has none), and the cursor it was read from. */
export const collection = cache(async (handle: string, cursor?: string) => {
  const where = await locality();
  return listFrom(cursor, (from) => orNotFound(fetchCollection(handle, { ...where, limit: 24, cursor: from })));
});

export type ResolvedVariant = { product: Omit<CatalogProduct, 'variants'>; variant: Variant };

/** Products read at once while resolving cart lines or naming bundle items. */
const PRODUCT_READS_AT_ONCE = 6;

/**
 * Finds the cart's variants. `key` is the lines as `variantId:productHandle` joined by `,`
 * (the handle may be empty). A line that knows its product is found by reading that
 * product — work bounded by the cart, never by the catalog. Only lines without one (carts
 * from before handles were kept) or whose product no longer has the variant are looked
 * for in catalog pages, until all are found or the catalog ends. Ids not found are simply
 * absent (no longer published, or not sold in this market).
 */
export const resolveVariants = cache(async (key: string): Promise<Map<string, ResolvedVariant>> => {
  const lines = key.split(',').filter(Boolean).map((pair) => {
    const [variantId = '', productHandle = ''] = pair.split(':');
    return { variantId, productHandle };
  });
  const found = new Map<string, ResolvedVariant>();
  if (lines.length === 0) return found;
  const where = await locality();

  const handles = [...new Set(lines.map((l) => l.productHandle).filter(Boolean))];
  const products = await mapBounded(handles, PRODUCT_READS_AT_ONCE, (handle) =>
    productRead(handle, where.market, where.locale).catch((error: unknown) => {
      if (isSiteApiError(error, 'not_found')) return null;
      throw error;
    }),
  );
  const wanted = new Set(lines.map((l) => l.variantId));
  for (const p of products) {
    if (!p) continue;
    const { variants, images, handle, id, title, options, updatedAt } = p;
    const product = { id, handle, title, options, updatedAt, featuredImage: images[0] ?? null };
    for (const variant of variants) if (wanted.has(variant.id)) found.set(variant.id, { product, variant });
  }

  const missing = new Set([...wanted].filter((id) => !found.has(id)));
  let cursor: string | undefined;
  for (let pages = 0; missing.size > 0 && pages < 40; pages += 1) {
    const page = await fetchCatalogPage({ ...where, limit: 250, cursor });
    for (const { variants, ...item } of page.data) {
      for (const variant of variants) {
        if (missing.delete(variant.id)) found.set(variant.id, { product: item, variant });
      }
    }
    if (!page.page.nextCursor) break;
    cursor = page.page.nextCursor;
  }
  return found;
});

export type BundleItemName = { productHandle: string; productTitle: string; variantTitle: string };

/**
 * Names the items of bundles: each item carries its product's handle, so this reads each
 * distinct product once (a few at a time) — work bounded by the bundles' size, never by
 * the catalog's. An item whose product the market does not sell (404) stays unnamed;
 * any other failure rejects, and the caller decides whether a page may render without names.
 */
export async function nameBundleItems(
  bundles: Product['bundles'],
  where: Required<Locality>,
): Promise<Map<string, BundleItemName>> {
  const handles = [...new Set(bundles.flatMap((b) => b.items.map((i) => i.productHandle)))];
  const products = await mapBounded(handles, PRODUCT_READS_AT_ONCE, (handle) =>
    productRead(handle, where.market, where.locale).catch((error: unknown) => {
      if (isSiteApiError(error, 'not_found')) return null;
      throw error;
    }),
  );
  const names = new Map<string, BundleItemName>();
  for (const p of products) {
    if (!p) continue;
    for (const v of p.variants) names.set(v.id, { productHandle: p.handle, productTitle: p.title, variantTitle: v.title });
  }
  return names;
}

/** `fn` over `items`, at most `limit` running at a time, results in order. */
async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
