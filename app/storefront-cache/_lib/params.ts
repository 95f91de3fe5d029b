import { decodeOrigin } from '@/lib/storefront/routing';

/** The route's path is the page's cache key (lib/storefront/routing.ts, cachedProductPath). */
export type CachedPageParams = { origin: string; market: string; locale: string; catalog: string };

/** The key's origin; the proxy only ever writes valid ones (and refuses these paths from outside). */
export function originOf(segment: string): string {
  const origin = decodeOrigin(segment);
  if (!origin) throw new Error('Not a cached page key');
  return origin;
}
