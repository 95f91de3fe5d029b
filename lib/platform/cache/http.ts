import { hash } from 'node:crypto';

/** Cache-Control by kind of data. Every credentialed answer is private to its caller. */
export const CACHE_PROFILES = {
  /** site identity, markets, locales */
  site: 'private, max-age=300, stale-while-revalidate=3600',
  /** products, collections, catalog pages */
  catalog: 'private, max-age=60, stale-while-revalidate=600',
  /** the storefront snapshot: prices and coarse availability of featured products */
  snapshot: 'private, max-age=30, stale-while-revalidate=120',
  /** coarse availability: short-lived */
  availability: 'private, max-age=5, stale-while-revalidate=30',
  /** a checkout session: always revalidate */
  session: 'private, no-cache',
  none: 'no-store',
} as const;
export type CacheProfile = keyof typeof CACHE_PROFILES;

/** A strong validator derived from the exact bytes sent. */
export function strongEtag(body: string | Uint8Array): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}
