import 'server-only';
import { cache } from 'react';
import { cookies, headers } from 'next/headers';
import type { Market, Site } from '@/lib/contract/catalog';
import { fetchSite, fetchStorefront } from '@/lib/site-client';
import { dictionary, uiLanguage, type Dictionary, type UiLanguage } from './i18n';

export const MARKET_COOKIE = 'market';
export const LOCALE_COOKIE = 'locale';

export type Shop = {
  site: Site;
  market: Market;
  locale: string;
  lang: UiLanguage;
  t: Dictionary;
};

/**
 * The shopper's market and locale for this request: the cookie's choice when the Site
 * still offers it, else the Site's defaults — so plain URLs always work.
 */
export const shop = cache(async (): Promise<Shop> => {
  const [site, jar] = await Promise.all([fetchSite(), cookies()]);
  const fallback = site.markets.find((m) => m.id === site.defaultMarket) ?? site.markets[0];
  if (!fallback) throw new Error('The Site has no markets');
  const market = site.markets.find((m) => m.id === jar.get(MARKET_COOKIE)?.value) ?? fallback;
  const wanted = jar.get(LOCALE_COOKIE)?.value;
  const locale = wanted && market.locales.includes(wanted) ? wanted : market.defaultLocale;
  const lang = uiLanguage(locale);
  return { site, market, locale, lang, t: dictionary(lang) };
});

/** The storefront snapshot (navigation + featured) for the shopper's market, once per request. */
export const snapshot = cache(async () => {
  const { market, locale } = await shop();
  return fetchStorefront({ market: market.id, locale });
});

/** The market/locale pair every localised read is made with. */
export async function locality() {
  const { market, locale } = await shop();
  return { market: market.id, locale };
}

/** The shopper's address, forwarded to the API only to partition its write limits. */
export async function buyerIp(): Promise<string | null> {
  const list = await headers();
  const forwarded = list.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || list.get('x-real-ip') || null;
}

/** Absolute origin of this request, for sitemap and canonical URLs. */
export async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get('x-forwarded-host') ?? list.get('host') ?? 'localhost';
  const proto = list.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto.split(',')[0]}://${host.split(',')[0]}`;
}

/** Cookies are Secure whenever the shopper reached us over HTTPS. */
export async function secureCookies(): Promise<boolean> {
  const list = await headers();
  return (list.get('x-forwarded-proto') ?? '').startsWith('https');
}
