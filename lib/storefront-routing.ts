/**
 * How a storefront request maps to what its page shows: the shopper's market and locale
 * (cookies, and on a first visit the browser's Accept-Language), the origin its absolute URLs use (headers), and the internal path of a
 * product page that Next may cache.
 *
 * Pure and framework-free, so the storefront (app/(storefront)) and the proxy's page key
 * (lib/storefront-page-key.ts) read a request the same way: a cached page is only correct
 * if its key was chosen exactly as the page itself would choose.
 */

export const MARKET_COOKIE = 'market';
export const LOCALE_COOKIE = 'locale';

/**
 * The shop's pages, rendered on request (or a product page from the page cache), the pages of
 * its settings' texts (legal pages, shipping, returns, contact) among them.
 */
export const SHOP_PAGE = /^\/(?:products|products\/[^/]+|collections\/[^/]+|cart|checkout\/.+|search|legal\/(?:imprint|privacy|terms|withdrawal)|shipping|returns|contact)?$/;

type MarketLike = { id: string; locales: readonly string[]; defaultLocale: string };

/**
 * The shopper's market and locale: the cookie's market when the Site still offers it, else
 * the Site's default market (else its first); the cookie's locale when that market offers
 * it, else the market's default locale. Anything else in the cookies maps to the defaults,
 * so junk cookies can only ever name a pair the Site offers. Null when the Site has no market.
 */
export function chooseLocality<M extends MarketLike>(
  markets: readonly M[],
  defaultMarketId: string,
  wanted: { market?: string; locale?: string; acceptLanguage?: string | null },
): { market: M; locale: string } | null {
  const fallback = markets.find((m) => m.id === defaultMarketId) ?? markets[0];
  if (!fallback) return null;
  const market = markets.find((m) => m.id === wanted.market) ?? fallback;
  const locale = wanted.locale && market.locales.includes(wanted.locale)
    ? wanted.locale
    : acceptedLocale(wanted.acceptLanguage, market.locales) ?? market.defaultLocale;
  return { market, locale };
}

/** More than this of an Accept-Language header is not read (browsers send a few entries). */
const ACCEPT_LANGUAGE_MAX = 512;

/**
 * The first of `offered` the browser's Accept-Language asks for, by its q order: an exact
 * tag (`sv-SE`), else a locale of the same language (`de` or `de-CH` → `de-DE`). Null when
 * it asks for none of them (or says nothing), so the market's default applies. A shopper's
 * choice in the locale cookie always wins over this (see chooseLocality).
 */
export function acceptedLocale(header: string | null | undefined, offered: readonly string[]): string | null {
  if (!header) return null;
  const asked = header
    .slice(0, ACCEPT_LANGUAGE_MAX)
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((a) => /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(a.tag) && a.q > 0 && a.q <= 1)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const language = (tag: string) => tag.split('-')[0];
  for (const { tag } of asked) {
    const exact = offered.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const sameLanguage = offered.find((l) => language(l.toLowerCase()) === language(tag));
    if (sameLanguage) return sameLanguage;
  }
  return null;
}

type HeaderList = { get(name: string): string | null };

/** The origin the shopper reached us at, as a reverse proxy reports it (X-Forwarded-*), else Host. */
export function requestOrigin(headers: HeaderList): string {
  const host = headers.get('x-forwarded-host') ?? headers.get('host') ?? 'localhost';
  const proto = headers.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto.split(',')[0]}://${host.split(',')[0]}`;
}

/**
 * `text` as a bare http(s) origin (`https://shop.example.com`), or null when it is anything
 * else (a path, credentials, another scheme, garbage from a header). Only such an origin
 * may become part of a cache key or a page's absolute URLs.
 */
export function parseOrigin(text: string): string | null {
  if (text.length > 300) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** Internal pages live under this prefix; the proxy rewrites to it and refuses it from outside. */
export const CACHED_PAGES_PREFIX = '/storefront-cache';

/** What a cached product page's HTML depends on besides its handle. */
export type PageKey = {
  /** Absolute URLs in the page (canonical, JSON-LD) use it. */
  origin: string;
  market: string;
  locale: string;
  /** The Site and its catalog version: any catalog change makes a new key, on every instance. */
  siteId: string;
  catalogVersion: number;
};

/** `/storefront-cache/{origin}/{market}/{locale}/{siteId}.{version}/products/{handle}`; the handle segment as it came (still percent-encoded). */
/** The key's catalog segment, `siteId.version`: the cached route's `[catalog]` param. */
export function catalogSegment(key: Pick<PageKey, 'siteId' | 'catalogVersion'>): string {
  return `${key.siteId}.${key.catalogVersion}`;
}

export function cachedProductPath(key: PageKey, handleSegment: string): string {
  const parts = [encodeOrigin(key.origin), key.market, key.locale, catalogSegment(key)].map(encodeURIComponent);
  return `${CACHED_PAGES_PREFIX}/${parts.join('/')}/products/${handleSegment}`;
}

/** The key and handle a cached product page's path carries (cachedProductPath read back), or null. */
export function parseCachedProductPath(path: string): { key: PageKey; handle: string } | null {
  const parts = path.split('/');
  if (parts.length !== 8 || parts[0] !== '' || `/${parts[1]}` !== CACHED_PAGES_PREFIX || parts[6] !== 'products') return null;
  try {
    const [origin, market, locale, catalog, , handle] = parts.slice(2).map(decodeURIComponent);
    const dot = catalog!.lastIndexOf('.');
    const catalogVersion = Number(catalog!.slice(dot + 1));
    const decoded = decodeOrigin(origin!);
    if (dot < 1 || !Number.isSafeInteger(catalogVersion) || !decoded || !market || !locale || !handle) return null;
    return { key: { origin: decoded, market, locale, siteId: catalog!.slice(0, dot), catalogVersion }, handle };
  } catch {
    return null;
  }
}

/** The origin as one path segment (base64url: no `/` or `:` to escape). */
export function encodeOrigin(origin: string): string {
  return Buffer.from(origin, 'utf8').toString('base64url');
}

/** The origin a cached page's key carries, checked again (null when it is not one). */
export function decodeOrigin(segment: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(segment)) return null;
  const origin = Buffer.from(segment, 'base64url').toString('utf8');
  return parseOrigin(origin) === origin ? origin : null;
}
