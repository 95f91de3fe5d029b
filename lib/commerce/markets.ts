import { asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { marketCountries, marketLocales, markets, marketTranslations } from '@/db/schema';
import { prepared, read, readTogether, type DbOrTx } from '@/db';
import type { Market } from '@/lib/contract/catalog';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { cacheable, versionKey } from '@/lib/platform/cache/memo';
import { DomainError } from '@/lib/platform/errors';

/**
 * `name` is the stored one; `names` the market's name per locale (see marketName).
 * `taxRateBp` is the market's tax rate, `countryTaxRateBp` the rates of its countries that
 * have their own (see taxRateIn).
 */
export type MarketInfo = Market & { taxRateBp: number; countryTaxRateBp: Record<string, number>; names: Record<string, string> };
export type MarketChoice = { market: MarketInfo; locale: string; markets: MarketInfo[] };

/**
 * Markets change rarely and every change bumps the Site's catalog version (a trigger),
 * which each request reads fresh from the database with its credential. So a memo keyed
 * by (Site, version) is never stale and holds no state another instance needs. Reads
 * inside a transaction skip it (they might see the transaction's own writes).
 */
const memo = new Map<string, Promise<MarketInfo[]>>();
/** The same markets once read, for callers that need not wait a turn of the event loop. */
const loaded = new Map<string, MarketInfo[]>();

export function loadMarkets(database: DbOrTx, site: SiteContext['site']): Promise<MarketInfo[]> {
  if (!cacheable(database)) return queryMarkets(database, site.id);
  const key = versionKey(database, site);
  let hit = memo.get(key);
  if (!hit) {
    hit = queryMarkets(database, site.id);
    hit.then(
      (markets) => loaded.set(key, markets),
      () => memo.delete(key),
    );
    if (memo.size > 256) {
      memo.clear();
      loaded.clear();
    }
    memo.set(key, hit);
  }
  return hit;
}

const siteIdIs = (column: SQLiteColumn) => eq(column, sql.placeholder('siteId'));

/** The Site's markets, countries, locales and names: four reads of one snapshot, sent together (one request over a network). */
async function queryMarkets(database: DbOrTx, siteId: string): Promise<MarketInfo[]> {
  const [rows, countries, locales, names] = await readTogether(database, [
    read(
      prepared(database, 'markets.markets', (d) =>
        d.select().from(markets).where(siteIdIs(markets.siteId)).orderBy(asc(markets.position)).prepare(),
      ),
      { siteId },
    ),
    read(
      prepared(database, 'markets.countries', (d) =>
        d.select().from(marketCountries).where(siteIdIs(marketCountries.siteId)).orderBy(asc(marketCountries.position)).prepare(),
      ),
      { siteId },
    ),
    read(
      prepared(database, 'markets.locales', (d) =>
        d.select().from(marketLocales).where(siteIdIs(marketLocales.siteId)).orderBy(asc(marketLocales.position)).prepare(),
      ),
      { siteId },
    ),
    read(
      prepared(database, 'markets.names', (d) => d.select().from(marketTranslations).where(siteIdIs(marketTranslations.siteId)).prepare()),
      { siteId },
    ),
  ] as const);
  return rows.map((m) => ({
    id: m.id,
    name: m.name,
    currency: m.currency,
    countries: countries.filter((c) => c.marketId === m.id).map((c) => c.country),
    locales: locales.filter((l) => l.marketId === m.id).map((l) => l.locale),
    defaultLocale: m.defaultLocale,
    taxInclusive: m.taxInclusive,
    taxRateBp: m.taxRateBp,
    countryTaxRateBp: Object.fromEntries(
      countries.filter((c) => c.marketId === m.id && c.taxRateBp !== null).map((c) => [c.country, c.taxRateBp!]),
    ),
    names: Object.fromEntries(names.filter((n) => n.marketId === m.id).map((n) => [n.locale, n.name])),
  }));
}

/**
 * `market` and `locale` as a request names them (in the query of a read, `where = 'query'`,
 * or in the body of a checkout creation, `where = 'body'`, which only changes the pointers of
 * its errors). Both default: the Site's market; the Site's locale if that market offers it,
 * else the market's.
 */
export async function chooseMarket(
  database: DbOrTx,
  site: SiteContext['site'],
  requested: { market?: string; locale?: string },
  where: 'query' | 'body' = 'query',
): Promise<MarketChoice> {
  const pointer = (name: string) => (where === 'query' ? `#/query/${name}` : `/${name}`);
  const all = (cacheable(database) ? loaded.get(versionKey(database, site)) : undefined) ?? (await loadMarkets(database, site));
  const marketId = requested.market ?? site.defaultMarketId;
  const market = all.find((m) => m.id === marketId.toLowerCase());
  if (!market) {
    throw new DomainError('unknown_market', `The Site has no market "${marketId.slice(0, 64)}".`, {
      errors: [{ pointer: pointer('market'), code: 'unknown_market', detail: `Known markets: ${all.map((m) => m.id).join(', ')}.` }],
    });
  }
  let locale: string | undefined;
  if (requested.locale !== undefined) {
    locale = market.locales.find((l) => l.toLowerCase() === requested.locale!.toLowerCase());
    if (!locale) {
      throw new DomainError('unsupported_locale', `Market "${market.id}" does not offer locale "${requested.locale.slice(0, 64)}".`, {
        errors: [{ pointer: pointer('locale'), code: 'unsupported_locale', detail: `Offered: ${market.locales.join(', ')}.` }],
      });
    }
  } else {
    locale = market.locales.includes(site.defaultLocale) ? site.defaultLocale : market.defaultLocale;
  }
  return { market, locale, markets: all };
}

/**
 * A locale the Site offers in any market, or its default locale (GET /site names its markets
 * in it), matched without regard to case; the Site's default locale when none is asked for.
 */
export function chooseSiteLocale(all: MarketInfo[], site: SiteContext['site'], requested: string | undefined): string {
  if (requested === undefined) return site.defaultLocale;
  const offered = [...new Set([site.defaultLocale, ...all.flatMap((m) => m.locales)])];
  const locale = offered.find((l) => l.toLowerCase() === requested.toLowerCase());
  if (!locale) {
    throw new DomainError('unsupported_locale', `The Site does not offer locale "${requested.slice(0, 64)}".`, {
      errors: [{ pointer: '#/query/locale', code: 'unsupported_locale', detail: `Offered: ${offered.join(', ')}.` }],
    });
  }
  return locale;
}

/** The market of a Site that serves a country, if any. */
export async function marketForCountry(database: DbOrTx, site: SiteContext['site'], country: string): Promise<MarketInfo | undefined> {
  const all = await loadMarkets(database, site);
  return all.find((m) => m.countries.includes(country.toUpperCase()));
}

/** The market's name in the locale, else in the Site's default locale, else the stored one (as product titles fall back). */
export function marketName(m: MarketInfo, locale: string, fallback: string): string {
  return m.names[locale] ?? m.names[fallback] ?? m.name;
}

/** The market as the API shows it, named in `locale` (see marketName). */
export function publicMarket(m: MarketInfo, locale: string, fallback: string): Market {
  return {
    id: m.id,
    name: marketName(m, locale, fallback),
    countries: m.countries,
    currency: m.currency,
    locales: m.locales,
    defaultLocale: m.defaultLocale,
    taxInclusive: m.taxInclusive,
  };
}
