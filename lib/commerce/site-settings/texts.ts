import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { sites, siteTexts } from '@/db/schema';
import { languageOf, PAGE_TEXT_PREFIX } from '@/db/site-settings';
import { SHOP_TEXT_KEYS, type ShopPageKey, type ShopTextKey } from '@/lib/contract/site-settings-document';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { cacheable, versionKey } from '@/lib/platform/cache/memo';

type Stored = {
  business: { legalName: string | null; postalAddress: (typeof sites.$inferSelect)['postalAddress']; contactEmail: string | null };
  /** text key → locale or language → body */
  texts: Map<string, Map<string, string>>;
};

/**
 * Settings change rarely, and each change bumps the catalog version (triggers, migration
 * 0021), which every request reads with its credential: a memo keyed by (Site, version)
 * is never stale, as the markets' is (lib/commerce/markets.ts).
 */
const memo = new Map<string, Promise<Stored>>();

function load(database: DbOrTx, site: SiteContext['site']): Promise<Stored> {
  if (!cacheable(database)) return query(database, site.id);
  const key = versionKey(database, site);
  let hit = memo.get(key);
  if (!hit) {
    hit = query(database, site.id);
    hit.catch(() => memo.delete(key));
    if (memo.size > 64) memo.clear();
    memo.set(key, hit);
  }
  return hit;
}

async function query(database: DbOrTx, siteId: string): Promise<Stored> {
  const [[row], rows] = await Promise.all([
    database
      .select({ legalName: sites.legalName, postalAddress: sites.postalAddress, contactEmail: sites.contactEmail })
      .from(sites)
      .where(eq(sites.id, siteId)),
    database.select().from(siteTexts).where(eq(siteTexts.siteId, siteId)),
  ]);
  const texts = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let byLocale = texts.get(r.key);
    if (!byLocale) texts.set(r.key, (byLocale = new Map()));
    byLocale.set(r.locale, r.body);
  }
  return { business: row ?? { legalName: null, postalAddress: null, contactEmail: null }, texts };
}

/** The locale's text: its own, else its language's, else the default locale's (own, else language's). */
function pick(byLocale: Map<string, string> | undefined, locale: string, defaultLocale: string): { body: string; locale: string } | null {
  if (!byLocale) return null;
  for (const candidate of [locale, languageOf(locale), defaultLocale, languageOf(defaultLocale)]) {
    const body = byLocale.get(candidate);
    if (body !== undefined) return { body, locale: candidate };
  }
  return null;
}

export type ShopTextsIn = Record<ShopTextKey, string | null>;

/** The business behind the Site, and its short texts in each of `locales`. */
export async function readShopTexts(database: DbOrTx, site: SiteContext['site'], locales: string[]) {
  const stored = await load(database, site);
  const texts: Record<string, ShopTextsIn> = {};
  for (const locale of locales) {
    texts[locale] = Object.fromEntries(
      SHOP_TEXT_KEYS.map((k) => [k, pick(stored.texts.get(k), locale, site.defaultLocale)?.body ?? null]),
    ) as ShopTextsIn;
  }
  return { business: stored.business, texts };
}

/** A page's Markdown in the locale (with the fallbacks of `pick`), and the locale or language it is written for; null when the settings have none. */
export async function readShopPage(database: DbOrTx, site: SiteContext['site'], page: ShopPageKey, locale: string) {
  const stored = await load(database, site);
  const found = pick(stored.texts.get(`${PAGE_TEXT_PREFIX}${page}`), locale, site.defaultLocale);
  return { key: page, markdown: found?.body ?? null, textLocale: found?.locale ?? null };
}
