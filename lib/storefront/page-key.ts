import 'server-only';
import { authenticateCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { loadMarkets, type MarketInfo } from '@/lib/commerce/markets';
import { db } from '@/lib/db';
import { env, type Env } from '@/lib/env';
import { isLoopbackHost } from '@/lib/loopback';
import { warnSometimes } from '@/lib/platform/observability/warn-sometimes';
import { credentialAndPage, type StoredPage } from './stored-pages';
import { LOCALE_COOKIE, MARKET_COOKIE, chooseLocality, countryFrom, parseOrigin, requestOrigin, type PageKey } from './routing';

/** What the proxy knows about a request: its cookies and headers. */
export type ShopperRequest = {
  cookies: { get(name: string): { value: string } | undefined };
  headers: { get(name: string): string | null };
};

/**
 * The key of the cached product page this request should see, or null when it must get
 * the page rendered on request instead (no credential configured, the API is another
 * server, a database error, an unknown or revoked credential, a Site without markets).
 *
 * Runs in the proxy on every product page view, so it is cheap: the storefront's own
 * credential is looked up in-process with one prepared, indexed read that also answers
 * the Site's current catalog version (the read every API request makes), and the markets
 * come from a memo keyed by that version. Nothing is cached across requests except by
 * version, so a catalog change committed by any instance counts from the next request.
 */
export async function productPageKey(request: ShopperRequest): Promise<PageKey | null> {
  return (await productPageKeyAndPage(request, null))?.key ?? null;
}

/**
 * productPageKey, and with a handle the page kept for it (lib/storefront/stored-pages.ts),
 * read together with the credential: over a network one request where they were two. The
 * page's address is the one the Site's markets chose last time (the markets are kept per
 * catalog version); when the key comes out another (a catalog change, another Site),
 * `page` is undefined and the caller reads the page at the key. Null as productPageKey.
 */
export async function productPageKeyAndPage(
  request: ShopperRequest,
  handle: string | null,
): Promise<{ key: PageKey; page?: StoredPage | null } | null> {
  try {
    const settings = env();
    const credential = settings.SITE_API_CREDENTIAL;
    if (!credential || !apiIsThisServer(settings)) return null;
    const origin = settings.STOREFRONT_ORIGIN ?? parseOrigin(requestOrigin(request.headers));
    if (!origin) return null;
    const seen = handle === null ? null : lastSeen;
    const guess = seen && localityOf(seen.markets, seen.site, request, settings);
    const address = guess && { siteId: seen!.site.id, origin, market: guess.market, locale: guess.locale, handle: handle! };
    const both = address ? await credentialAndPage(db(), credential, address) : undefined;
    const context = both ? both.context : await authenticateCredential(db(), credential);
    if (!context) return null;
    const { site } = context;
    const markets = await loadMarkets(db(), site);
    const choice = localityOf(markets, site, request, settings);
    if (!choice) return null;
    lastSeen = { site, markets };
    const key = { origin, market: choice.market, locale: choice.locale, siteId: site.id, catalogVersion: site.catalogVersion };
    const asGuessed = both && address!.siteId === key.siteId && address!.market === key.market && address!.locale === key.locale;
    return asGuessed ? { key, page: both.page } : { key };
  } catch (error) {
    warn(`[storefront] product pages render uncached: the page key lookup failed (${error instanceof Error ? error.name : 'error'})`);
    return null;
  }
}

/** The Site and markets of the latest key this process made: where the next page likely is. */
let lastSeen: { site: SiteContext['site']; markets: MarketInfo[] } | null = null;

function localityOf(markets: MarketInfo[], site: SiteContext['site'], request: ShopperRequest, settings: Env) {
  const choice = chooseLocality(markets, site.defaultMarketId, {
    market: request.cookies.get(MARKET_COOKIE)?.value,
    locale: request.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: request.headers.get('accept-language'),
    country: countryFrom(request.headers, settings.TRUST_COUNTRY_HEADER),
  });
  return choice && { market: choice.market.id, locale: choice.locale };
}

/**
 * The version and markets are read from this process's database, which is the API's
 * database only when the storefront calls this same server: SITE_API_BASE_URL unset, or
 * pointing at this server's own port on a loopback address. Against a separately deployed
 * API the pages render on request.
 */
export function apiIsThisServer(settings: Pick<Env, 'SITE_API_BASE_URL' | 'PORT'>): boolean {
  if (!settings.SITE_API_BASE_URL) return true;
  try {
    const url = new URL(settings.SITE_API_BASE_URL);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return isLoopbackHost(url.hostname) && port === String(settings.PORT);
  } catch {
    return false;
  }
}

/** A failing lookup only costs speed (the page renders on request): say so, but not on every request. */
const warn = warnSometimes();
