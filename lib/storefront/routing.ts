/**
 * How a storefront request maps to what its page shows: the shopper's market and locale
 * (cookies, and on a first visit a trusted country header and the browser's Accept-Language), the origin its absolute URLs use (headers), and the internal path of a
 * product page that Next may cache.
 *
 * Pure and framework-free, so the storefront (app/(storefront)) and the proxy's page key
 * (lib/storefront/page-key.ts) read a request the same way: a cached page is only correct
 * if its key was chosen exactly as the page itself would choose.
 */

export const MARKET_COOKIE = 'market';
export const LOCALE_COOKIE = 'locale';

/**
 * The shop's pages, rendered on request (or a product page from the page cache): each gets the
 * render gate, the shopper's read limit and the outage page. test/storefront-pages.test.ts
 * holds it equal to the page folders of app/(storefront).
 */
export const SHOP_PAGE =
  /^\/(?:products|products\/[^/]+|collections\/[^/]+|cart|checkout\/[^/]+(?:\/(?:confirmation|pay))?|search|subscriptions\/(?:confirm|unsubscribe)|legal\/[^/]+|shipping|returns|contact)?$/;

type MarketLike = { id: string; locales: readonly string[]; defaultLocale: string; countries?: readonly string[] };

/** What a request says about the shopper's market and language. */
export type Wanted = {
  /** The market cookie: the shopper's own choice. */
  market?: string;
  /** The locale cookie. */
  locale?: string;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | null;
  /** The visitor's country from a trusted platform header (countryFrom), or null. */
  country?: string | null;
};

/**
 * The shopper's market and locale. The market: the cookie's when the Site still offers it
 * (a choice the shopper made always wins); else, on a first visit, the market that sells to
 * the country the platform's trusted header names; else the one that sells to the region of
 * the browser's first language (`de-AT` → the market of AT); else the market of the first
 * language it asks for that any market offers (the Site's default market when it offers that
 * language); else the Site's default market (else its first). The locale: the cookie's when
 * that market offers it; else the first the browser asks for that the market offers
 * (acceptedLocale); else, when the browser asks only for languages the market does not
 * offer, the market's English (`fr-FR` reads English rather than Swedish); else the market's
 * default. Anything else in the cookies or headers maps to the defaults, so junk can only
 * ever name a pair the Site offers. Null when the Site has no market.
 */
export function chooseLocality<M extends MarketLike>(
  markets: readonly M[],
  defaultMarketId: string,
  wanted: Wanted,
): { market: M; locale: string } | null {
  const fallback = markets.find((m) => m.id === defaultMarketId) ?? markets[0];
  if (!fallback) return null;
  const asked = parseAcceptLanguage(wanted.acceptLanguage);
  const market = markets.find((m) => m.id === wanted.market) ?? firstVisitMarket(markets, fallback, asked, wanted.country ?? null);
  const locale =
    wanted.locale && market.locales.includes(wanted.locale) ? wanted.locale : (localeAsked(asked, market.locales) ?? market.defaultLocale);
  return { market, locale };
}

/** A market chosen from what the visitor's request says (no cookie names one). */
function firstVisitMarket<M extends MarketLike>(markets: readonly M[], fallback: M, asked: AcceptedLanguages, country: string | null): M {
  const sellingTo = (code: string) => (fallback.countries?.includes(code) ? fallback : markets.find((m) => m.countries?.includes(code)));
  if (country) {
    const byCountry = sellingTo(country);
    if (byCountry) return byCountry;
  } else {
    // Without a trusted country, the region of the browser's first language is the best
    // guess of where the visitor is (a later entry's region, like en-US after fr-FR, says
    // which English they read, not where they are). A trusted country no market sells to
    // outranks it: the language decides then.
    const region = firstRegion(asked.tags);
    const byRegion = region ? sellingTo(region) : undefined;
    if (byRegion) return byRegion;
  }
  for (const tag of asked.tags) {
    const lang = language(tag);
    const offering = (m: M) => m.locales.some((l) => language(l.toLowerCase()) === lang);
    if (offering(fallback)) return fallback;
    const other = markets.find(offering);
    if (other) return other;
  }
  return fallback;
}

/** More than this of an Accept-Language header is not read (browsers send a few entries). */
const ACCEPT_LANGUAGE_MAX = 512;

/** The language ranges a browser asks for, best first (lower case, q > 0), and whether it takes any (`*`). */
export type AcceptedLanguages = { tags: string[]; any: boolean };

// q is 0 to 1 with at most three decimals (RFC 9110); anything else makes the entry junk.
const QVALUE = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;
const LANGUAGE_RANGE = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;

/**
 * An Accept-Language header read as RFC 9110 says: entries by q order (header order among
 * equal q), `q=0` meaning "not this one". Malformed entries are skipped, never an error:
 * a header of junk asks for nothing, and the defaults apply.
 */
export function parseAcceptLanguage(header: string | null | undefined): AcceptedLanguages {
  if (!header) return { tags: [], any: false };
  const entries = header
    .slice(0, ACCEPT_LANGUAGE_MAX)
    .split(',')
    .map((entry, index) => {
      const [range = '', ...params] = entry.split(';').map((part) => part.trim());
      let q = 1;
      for (const param of params) {
        if (!/^q=/i.test(param)) continue;
        if (!QVALUE.test(param)) return null;
        q = Number(param.slice(2));
      }
      const tag = range.toLowerCase();
      return (tag === '*' || LANGUAGE_RANGE.test(tag)) && q > 0 ? { tag, q, index } : null;
    })
    .filter((e) => e !== null)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return { tags: entries.map((e) => e.tag).filter((t) => t !== '*'), any: entries.some((e) => e.tag === '*') };
}

const language = (tag: string) => tag.split('-')[0]!;

/** The region (`at` of `de-AT`, `tw` of `zh-Hant-TW`) of the browser's first language, upper case, else null. */
function firstRegion(tags: string[]): string | null {
  const first = tags[0];
  if (!first) return null;
  for (const tag of tags.filter((t) => language(t) === language(first))) {
    const region = tag
      .split('-')
      .slice(1)
      .find((sub) => /^[a-z]{2}$/.test(sub));
    if (region) return region.toUpperCase();
  }
  return null;
}

/** The offered locale the browser asks for (acceptedLocale), else its English when it asked only for others, else null. */
function localeAsked(asked: AcceptedLanguages, offered: readonly string[]): string | null {
  const found = acceptedFrom(asked.tags, offered);
  if (found || asked.tags.length === 0 || asked.any) return found;
  return offered.find((l) => language(l.toLowerCase()) === 'en') ?? null;
}

/**
 * The first of `offered` the browser's Accept-Language asks for, by its q order: an exact
 * tag (`sv-SE`), else a locale of the same language (`de` or `de-CH` → `de-DE`). Null when
 * it asks for none of them (or says nothing). A shopper's choice in the locale cookie always
 * wins over this (see chooseLocality).
 */
export function acceptedLocale(header: string | null | undefined, offered: readonly string[]): string | null {
  return acceptedFrom(parseAcceptLanguage(header).tags, offered);
}

function acceptedFrom(tags: string[], offered: readonly string[]): string | null {
  for (const tag of tags) {
    const exact = offered.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const sameLanguage = offered.find((l) => language(l.toLowerCase()) === language(tag));
    if (sameLanguage) return sameLanguage;
  }
  return null;
}

/**
 * The visitor's country from the platform's header named by TRUST_COUNTRY_HEADER
 * (`x-vercel-ip-country`, `cf-ipcountry`), upper case; null when no header is trusted, or it
 * is missing or not a country code (Cloudflare's `XX` unknown, `T1` Tor). Only a header the
 * platform always sets itself may be trusted: anyone can send one.
 */
export function countryFrom(headers: HeaderList, trusted: string | undefined): string | null {
  if (!trusted) return null;
  const value = headers.get(trusted)?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : null;
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
