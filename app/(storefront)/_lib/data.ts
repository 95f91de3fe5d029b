import 'server-only';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import type { CatalogProduct, Product, ProductListPage, Variant } from '@/lib/contract/catalog';
import { fetchCatalogPage, fetchCollection, fetchProduct, isSiteApiError, searchProducts, type Locality } from '@/lib/site-client';
import { paramOfPointer, without, type ListParam, type ListState } from './search';
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

/** A published product the market does not sell (no price there): its page says so, with where it is sold. */
export type NotSold = { handle: string; title: string; soldIn: string[] };

/** The product, or what its page says when the market does not sell it. */
export async function productOrNotSold(handle: string, where: Required<Locality>): Promise<{ product: Product } | { notSold: NotSold }> {
  try {
    return { product: await productIn(handle, where) };
  } catch (error) {
    if (!isSiteApiError(error, 'not_sold_in_market')) throw error;
    const { product, soldIn } = error.problem as { product?: { title?: unknown }; soldIn?: unknown };
    const title = typeof product?.title === 'string' ? product.title : handle;
    return { notSold: { handle, title, soldIn: Array.isArray(soldIn) ? soldIn.filter((m): m is string => typeof m === 'string') : [] } };
  }
}

/**
 * A list page from `cursor`, and the cursor it was read from. A cursor the API refuses (a
 * stale link, a crawler's guess, a typo) shows the first page, as a plain list URL does:
 * a list page is never an error for its cursor alone.
 */
export async function listFrom<T>(
  cursor: string | undefined,
  read: (cursor?: string) => Promise<T>,
): Promise<{ page: T; cursor?: string }> {
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

/** Products on one page of a list (the search page, a collection). */
export const LIST_PAGE_SIZE = 24;

/**
 * One page of products in a list state (searched, ordered, filtered; a collection's when
 * `collection` is given), with the facets its filters show. A value the API refuses — a
 * price with more decimals than the currency has, a minimum above the maximum, a cursor of
 * another order — is a 422 pointing at its parameter: that parameter is dropped and the list
 * asked again, and `refused` names it (a refused cursor silently shows the first page, as
 * listFrom does). A list page is never an error for its URL alone.
 */
export async function productList(
  state: ListState,
  { collection, limit = LIST_PAGE_SIZE }: { collection?: string; limit?: number } = {},
): Promise<{ page: ProductListPage; state: ListState; refused: ListParam[] }> {
  const where = await locality();
  const refused: ListParam[] = [];
  let current = state;
  // Each retry drops at least one parameter, so a handful of rounds covers every one of them.
  for (let round = 0; ; round++) {
    try {
      const { q, sort, available, priceMin, priceMax, options, cursor } = current;
      const page = await searchProducts({
        ...where,
        limit,
        facets: true,
        collection,
        q,
        sort,
        available,
        priceMin,
        priceMax,
        options,
        cursor,
      });
      return { page, state: current, refused };
    } catch (error) {
      if (round >= 4 || !isSiteApiError(error, 'validation_failed')) throw error;
      const params = [...new Set(error.errors.map((e) => paramOfPointer(e.pointer)))];
      if (params.length === 0 || params.includes(null)) throw error;
      for (const param of params as ListParam[]) {
        current = without(current, param);
        if (param !== 'cursor' && !refused.includes(param)) refused.push(param);
      }
    }
  }
}

/** Products of the related section (RelatedProducts): its product's first collection, one more than it shows. */
export const RELATED_SHOWN = 4;

/** The first products of a collection, as the related section asks for them, once per request. */
const collectionStart = cache((collection: string, market: string, locale: string) =>
  searchProducts({ market, locale, collection, limit: RELATED_SHOWN + 1 }),
);

/**
 * The read of a product's related section, or null when it has no collection. A page starts
 * it as soon as it has the product, beside its other reads, so the section does not wait
 * for them; the section then gets the same read.
 */
export function relatedRead(product: Product, where: Required<Locality>): Promise<ProductListPage> | null {
  const collection = product.collections[0];
  if (!collection) return null;
  const read = collectionStart(collection.handle, where.market, where.locale);
  // Whoever awaits it decides what a failure means; started early, it must not count as unhandled.
  read.catch(() => {});
  return read;
}

/**
 * A product a cart bundle comes from, in the shopper's market and language, read once per
 * request (the bundle lines and the cart's subtotal share it); null when the API has none.
 */
export const bundleProduct = cache(async (handle: string): Promise<Product | null> => {
  const where = await locality();
  return productRead(handle, where.market, where.locale).catch(() => null);
});

export type ResolvedVariant = { product: Omit<CatalogProduct, 'variants'>; variant: Variant };

/** Products read at once while naming bundle items. */
const PRODUCT_READS_AT_ONCE = 6;
/** The API's most variant ids per product-list filter. */
const IDS_PER_READ = 100;

/**
 * Finds variants with their products: `key` is the variant ids joined by `,` (sorted, so
 * equal sets share one read per request). One catalog read per 100 ids, filtered to the
 * products of those variants — a cart's lines (at most 100, see cart-codec) cost one call
 * whatever the cookie says. Ids not found are simply absent (no longer published, not sold
 * in this market, or never real).
 */
export const resolveVariants = cache(async (key: string): Promise<Map<string, ResolvedVariant>> => {
  const wanted = new Set(key.split(',').filter(Boolean));
  const found = new Map<string, ResolvedVariant>();
  if (wanted.size === 0) return found;
  const where = await locality();
  const ids = [...wanted];
  const chunks = Array.from({ length: Math.ceil(ids.length / IDS_PER_READ) }, (_, i) =>
    ids.slice(i * IDS_PER_READ, (i + 1) * IDS_PER_READ),
  );
  const pages = await Promise.all(chunks.map((chunk) => fetchCatalogPage({ ...where, variantIds: chunk, limit: IDS_PER_READ })));
  for (const page of pages) {
    for (const { variants, ...product } of page.data) {
      for (const variant of variants) if (wanted.has(variant.id)) found.set(variant.id, { product, variant });
    }
  }
  return found;
});

/** The key resolveVariants takes for a set of variant ids. */
export function variantsKey(ids: Iterable<string>): string {
  return [...new Set(ids)].sort().join(',');
}

export type BundleItemName = { productHandle: string; productTitle: string; variantTitle: string };

/**
 * Names the items of bundles: each item carries its product's handle, so this reads each
 * distinct product once (a few at a time) — work bounded by the bundles' size, never by
 * the catalog's. An item whose product the market does not sell (404) stays unnamed;
 * any other failure rejects, and the caller decides whether a page may render without names.
 */
export async function nameBundleItems(bundles: Product['bundles'], where: Required<Locality>): Promise<Map<string, BundleItemName>> {
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
