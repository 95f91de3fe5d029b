import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { products, sites } from '@/db/schema';
import { readTransaction, type Database } from '@/db/client';
import type { Site, SitePageKey, StorefrontSnapshot } from '@/lib/contract/catalog';
import { readShopPage, readShopTexts } from '../site-settings/texts';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { chooseMarket, chooseSiteLocale, loadMarkets, publicMarket } from '../markets';
import { pageCache, versionKey } from '@/lib/platform/cache/memo';
import { isPublished } from '../published';
import { navigation } from './collections';
import { summarise } from './product-loaders';
import { soldIn } from './products';

const FEATURED_LIMIT = 8;

/**
 * The Site with its markets named in `locale` (any locale a market offers; default: the Site's),
 * the business behind it and its storefront texts in every locale it offers (its settings:
 * lib/commerce/site-settings), and the page asked for in `locale`.
 */
export async function readSite(
  database: Database,
  site: SiteContext['site'],
  requested: { locale?: string; page?: SitePageKey } = {},
): Promise<Site & { locale: string }> {
  const markets = await loadMarkets(database, site);
  const locale = chooseSiteLocale(markets, site, requested.locale);
  const offered = [...new Set([site.defaultLocale, ...markets.flatMap((m) => m.locales)])];
  const [{ business, texts }, page] = await Promise.all([
    readShopTexts(database, site, offered),
    requested.page ? readShopPage(database, site, requested.page, locale) : undefined,
  ]);
  return {
    id: site.id,
    handle: site.handle,
    name: site.name,
    defaultMarket: site.defaultMarketId,
    defaultLocale: site.defaultLocale,
    markets: markets.map((m) => publicMarket(m, locale, site.defaultLocale)),
    locale,
    business,
    texts,
    ...(page ? { page } : {}),
  };
}

/**
 * Everything a storefront's first paint needs, read in one transaction so the parts agree;
 * `version` is the Site's catalog version inside that transaction (bumped by any change).
 * Cached per catalog version (see lib/platform/cache/memo.ts): a hit is a snapshot read in one
 * transaction at a version that is still current.
 */
export async function readStorefrontSnapshot(
  database: Database,
  site: SiteContext['site'],
  requested: { market?: string; locale?: string },
): Promise<StorefrontSnapshot> {
  const key = `snapshot|${versionKey(database, site)}|${requested.market ?? ''}|${requested.locale ?? ''}`;
  return pageCache.through(key, () => readSnapshot(database, site, requested)) as Promise<StorefrontSnapshot>;
}

async function readSnapshot(
  database: Database,
  site: SiteContext['site'],
  requested: { market?: string; locale?: string },
): Promise<StorefrontSnapshot> {
  return readTransaction(database, async (tx) => {
    const [current] = await tx.select({ catalogVersion: sites.catalogVersion, name: sites.name }).from(sites).where(eq(sites.id, site.id));
    const fresh = { ...site, catalogVersion: current?.catalogVersion ?? site.catalogVersion, name: current?.name ?? site.name };
    const choice = await chooseMarket(tx, fresh, requested);
    const featuredRows = await tx
      .select()
      .from(products)
      .where(and(isPublished(site.id), isNotNull(products.featuredPosition), soldIn(choice.market.id)))
      .orderBy(asc(products.featuredPosition))
      .limit(FEATURED_LIMIT);
    const [nav, featured] = await Promise.all([navigation(tx, fresh, choice), summarise(tx, featuredRows, choice, site.defaultLocale)]);
    return {
      version: `${fresh.catalogVersion}`,
      site: { id: site.id, handle: site.handle, name: fresh.name },
      market: publicMarket(choice.market, choice.locale, fresh.defaultLocale),
      locale: choice.locale,
      markets: choice.markets.map((m) => publicMarket(m, choice.locale, fresh.defaultLocale)),
      navigation: nav,
      featured,
    };
  });
}
