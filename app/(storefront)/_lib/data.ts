import 'server-only';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import type { CatalogProduct, Variant } from '@/lib/contract/catalog';
import { fetchCatalogPage, fetchCollection, fetchProduct, isSiteApiError } from '@/lib/site-client';
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

/** One read per request, shared by the page and its metadata. */
export const product = cache(async (handle: string) => orNotFound(fetchProduct(handle, await locality())));

export const collection = cache(async (handle: string, cursor?: string) =>
  orNotFound(fetchCollection(handle, { ...(await locality()), limit: 24, cursor })),
);

export type ResolvedVariant = { product: Omit<CatalogProduct, 'variants'>; variant: Variant };

/**
 * Finds variants by id in the catalog (the cart and bundles hold only variant ids). Reads
 * catalog pages until every id is found or the catalog ends; ids not found are simply
 * absent (no longer published, or not sold in this market).
 */
export const resolveVariants = cache(async (key: string): Promise<Map<string, ResolvedVariant>> => {
  const wanted = new Set(key.split(',').filter(Boolean));
  const found = new Map<string, ResolvedVariant>();
  if (wanted.size === 0) return found;
  const where = await locality();
  let cursor: string | undefined;
  for (let pages = 0; pages < 40; pages += 1) {
    const page = await fetchCatalogPage({ ...where, limit: 250, cursor });
    for (const { variants, ...item } of page.data) {
      for (const variant of variants) if (wanted.has(variant.id)) found.set(variant.id, { product: item, variant });
    }
    if (found.size === wanted.size || !page.page.nextCursor) break;
    cursor = page.page.nextCursor;
  }
  return found;
});
