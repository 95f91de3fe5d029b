import 'server-only';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { reasonOf, warnSometimes } from '@/lib/platform/observability/warn-sometimes';
import { plainHtml, storePage, storedPage, type PageAddress, type StoredPage } from '@/lib/storefront/stored-pages';
import { catchUp, unchangedSince } from '@/lib/platform/cache/catalog-changes';
import { keptInDatabase } from '@/lib/platform/cache/stored-answers';
import { readLogEntries, readsUnchanged, scopesOfTag } from '@/lib/site-client';
import { pageReadsId, readsOfRendered } from '@/lib/storefront/page-reads';
import { CACHED_PAGES_PREFIX, catalogSegment, parseCachedProductPath, type PageKey } from '@/lib/storefront/routing';

/**
 * Product pages kept in the database once rendered (lib/storefront/stored-pages.ts) and
 * served by the proxy without rendering. See docs/storefront.md, "Cached product pages".
 */

/** The same URL shows other markets, languages and catalog versions: no shared cache may keep it. */
export const PAGE_CACHE_CONTROL = 'private, no-cache, no-store, max-age=0, must-revalidate';

/**
 * Whether pages of this origin are kept in the database: as answers are (keptInDatabase: the
 * configured origin, or this machine's own names). Other pages still come from Next's page
 * cache in memory, which bounds itself.
 */
export function storesPagesOf(origin: string): boolean {
  return env().PAGE_STORE !== 'off' && keptInDatabase(origin);
}

/**
 * Whether a key of Next's page cache is a product page's (app/storefront-cache): rendered on
 * its first request and kept in memory only, so never on disk (page-cache-handler.mjs).
 */
export function isKeptPageKey(cacheKey: string): boolean {
  return cacheKey.includes(`${CACHED_PAGES_PREFIX}/`);
}

/**
 * Handed every product page Next renders whole (lib/security/page-cache-handler.mjs):
 * kept under the address and catalog version its cache key names. A failed write costs the
 * next view a render, nothing else; it is said, not thrown into Next's cache.
 */
export function keepRenderedPage(cacheKey: string, html: string, policy: string): void {
  // Next 16 prefixes the path with its own parts (`/route-cache/APP_PAGE/<hash>/$`).
  const at = cacheKey.indexOf(`${CACHED_PAGES_PREFIX}/`);
  const parsed = at < 0 ? null : parseCachedProductPath(cacheKey.slice(at));
  if (!parsed) return;
  const { key, handle } = parsed;
  const reads = readsOfRendered(pageReadsId(key, catalogSegment(key), handle));
  if (!policy || !storesPagesOf(key.origin)) return;
  storePage(db(), addressOf(key, handle), key.catalogVersion, html, policy, reads).catch((error: unknown) => {
    warn(`[storefront] a rendered product page was not kept (${reasonOf(error)}); it renders again on its next view`);
  });
}

/**
 * The kept page for this key and handle, answered whole, or null when there is none or the
 * database cannot say (the page is then rendered, as without a kept copy). Sent as plain
 * HTML: Next drops a proxy answer's Content-Encoding (and compresses it itself for a client
 * that takes gzip, as every page it sends), so the gzipped copy cannot go out as is.
 */
export async function storedPageAnswer(
  key: PageKey,
  handle: string,
  extraHeaders: Record<string, string>,
  found?: StoredPage | null,
): Promise<Response | null> {
  if (!storesPagesOf(key.origin)) return null;
  const kept = await keptPage(key, handle, found);
  if (!kept) return null;
  const body = plainHtml(kept.page);
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': PAGE_CACHE_CONTROL,
      'Content-Security-Policy': kept.page.policy,
      'X-Page-Source': kept.revalidated ? 'revalidated' : 'stored',
      ...extraHeaders,
    },
  });
}

/**
 * The page kept for this key and handle: one kept for its catalog version, or one kept for
 * an older version that is still the page this version renders — none of the catalog scopes
 * its answers named changed since (a price change to another product leaves it kept; checked
 * here, no read), and every other read it was made from (the navigation, a collection's list)
 * still answers the same (asked once per catalog version for all pages that share it). Null
 * when there is none, it is not the same, or the database cannot say. `found`: the page at
 * the key's address as read with the key (lib/storefront/page-key.ts), if it was.
 */
export async function keptPage(
  key: PageKey,
  handle: string,
  found?: StoredPage | null,
): Promise<{ page: StoredPage; revalidated: boolean } | null> {
  let page;
  let reads;
  try {
    page = found !== undefined ? found : await storedPage(db(), addressOf(key, handle));
    if (!page) return null;
    if (page.catalogVersion === key.catalogVersion) return { page, revalidated: false };
    reads = page.reads === null ? null : splitReads(page.reads);
    if (!reads) return null;
    const site = { id: key.siteId, catalogVersion: Math.max(key.catalogVersion, page.catalogVersion) };
    await catchUp(db(), site);
    if (!unchangedSince(db(), key.siteId, reads.scopes, page.catalogVersion)) return null;
  } catch (error) {
    warn(`[storefront] kept product pages could not be read (${reasonOf(error)}); pages render meanwhile`);
    return null;
  }
  if (reads.others && !(await readsUnchanged(reads.others, catalogSegment(key)))) return null;
  return { page, revalidated: true };
}

/** A page's kept reads: the scopes its scoped answers named, and the other reads (as kept, or null for none). */
function splitReads(kept: string): { scopes: string[]; others: string | null } | null {
  const entries = readLogEntries(kept);
  if (!entries) return null;
  const scopes: string[] = [];
  const others: [string, unknown][] = [];
  for (const [path, tag] of entries) {
    const named = typeof tag === 'string' ? scopesOfTag(tag) : null;
    if (named) scopes.push(...named);
    else others.push([path, tag]);
  }
  return { scopes, others: others.length > 0 ? JSON.stringify(Object.fromEntries(others)) : null };
}

function addressOf(key: PageKey, handle: string): PageAddress {
  return { siteId: key.siteId, origin: key.origin, market: key.market, locale: key.locale, handle };
}

/** A failing read or write only costs renders: say so, but not on every request. */
const warn = warnSometimes();
