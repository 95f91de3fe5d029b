import 'server-only';
import { cache } from 'react';
import { logReadsWith, type ReadLog } from '@/lib/site-client';
import { pageReadsId, renderingWith } from '@/lib/storefront/page-reads';
import { originOf, type CachedPageParams } from './params';

/** One log per render: React scopes `cache` to a request, shared by layouts, page and metadata. */
const readsOfThisRender = cache((): ReadLog => new Map());
logReadsWith(readsOfThisRender);

/**
 * Every API read of this render is logged, and the log goes with the page when it is kept:
 * after a catalog change, the page is kept on if every read still answers the same.
 */
export function logPageReads(params: CachedPageParams & { handle: string }): void {
  renderingWith(pageReadsId({ ...params, origin: originOf(params.origin) }, params.catalog, params.handle), readsOfThisRender());
}
