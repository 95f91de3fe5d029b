import 'server-only';
import { cache } from 'react';
import { cookies, headers } from 'next/headers';
import type { Market, Site, SiteTexts } from '@/lib/contract/catalog';
import { unstable_rethrow } from 'next/navigation';
import { env } from '@/lib/env';
import { shopperAddress } from '@/lib/shopper-address';
import { fetchSite, fetchStorefront, nameShoppersWith, shareChecksWithin } from '@/lib/site-client';
import {
  LOCALE_COOKIE,
  MARKET_COOKIE,
  chooseLocality,
  countryFrom,
  requestOrigin as originOf,
  type Wanted,
} from '@/lib/storefront/routing';
import { dictionary, uiLanguage, type Dictionary, type UiLanguage } from './i18n';

export { LOCALE_COOKIE, MARKET_COOKIE };

export type Shop = {
  site: Site;
  market: Market;
  locale: string;
  lang: UiLanguage;
  t: Dictionary;
  /** The shop's own texts in the locale (hero, tagline, newsletter pitch): the Site's settings; null where they have none. */
  texts: SiteTexts;
};

const NO_TEXTS: SiteTexts = { heroTitle: null, heroText: null, tagline: null, newsletterPitch: null };

/**
 * The Site (name, markets, defaults), once per request. Its markets are named in the Site's
 * default locale; the chrome names them in the page's locale from the snapshot instead.
 */
export const site = cache(() => fetchSite());

/**
 * The shop for a wanted market and locale: the pair when the Site still offers it, else the
 * Site's defaults (the same rule the proxy uses to pick a cached page, lib/storefront/routing.ts).
 */
export function shopIn(of: Site, wanted: Wanted): Shop {
  const choice = chooseLocality(of.markets, of.defaultMarket, wanted);
  if (!choice) throw new Error('The Site has no markets');
  const lang = uiLanguage(choice.locale);
  return {
    site: of,
    market: choice.market,
    locale: choice.locale,
    lang,
    t: dictionary(lang),
    texts: of.texts?.[choice.locale] ?? NO_TEXTS,
  };
}

/**
 * The shopper's market and locale for this request: the cookies' choice when the Site
 * still offers it; on a first visit the market of the visitor's country (a trusted platform
 * header) or of their browser's Accept-Language; else the Site's defaults — so plain URLs
 * always work. The rule is chooseLocality's, the one the page cache's key is made with.
 */
export const shop = cache(async (): Promise<Shop> => {
  const [current, jar, list] = await Promise.all([site(), cookies(), headers()]);
  return shopIn(current, {
    market: jar.get(MARKET_COOKIE)?.value,
    locale: jar.get(LOCALE_COOKIE)?.value,
    acceptLanguage: list.get('accept-language'),
    country: countryFrom(list, env().TRUST_COUNTRY_HEADER),
  });
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

/**
 * The shopper's address (see lib/shopper-address.ts: the socket's peer, or behind
 * TRUSTED_PROXY_HOPS proxies the address the outermost one saw), forwarded to the API only
 * to partition its rate limits. Never the client's own X-Forwarded-For.
 */
export const buyerIp = cache(async (): Promise<string | null> => shopperAddress(await headers(), env().TRUSTED_PROXY_HOPS));

// Every read the storefront makes for a request is charged to its shopper too, so one
// shopper cannot spend the storefront's whole budget. Outside a request (nothing to name),
// or in a page rendered once for everyone, there is no shopper.
nameShoppersWith(async () => {
  try {
    return await buyerIp();
  } catch (error) {
    unstable_rethrow(error);
    return null;
  }
});

// The API calls of one render (this request's: React scopes `cache` to it) read the
// credential once; outside a render every call is checked on its own.
shareChecksWithin(cache(() => ({})));

/** Absolute origin of this request, for sitemap and canonical URLs. */
export async function requestOrigin(): Promise<string> {
  return originOf(await headers());
}

/** Cookies are Secure whenever the shopper reached us over HTTPS. */
export async function secureCookies(): Promise<boolean> {
  const list = await headers();
  return (list.get('x-forwarded-proto') ?? '').startsWith('https');
}

/** Keeps the shopper's market and language in cookies for a year (a pair the Site offers: the caller's check). Server actions and route handlers only. */
export async function keepPreferences(market: string, locale: string): Promise<void> {
  const jar = await cookies();
  const options = { httpOnly: true, sameSite: 'lax' as const, secure: await secureCookies(), path: '/', maxAge: 365 * 86400 };
  jar.set(MARKET_COOKIE, market, options);
  jar.set(LOCALE_COOKIE, locale, options);
}
