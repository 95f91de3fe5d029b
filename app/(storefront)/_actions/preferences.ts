'use server';
import { cookies } from 'next/headers';
import { fetchSite } from '@/lib/site-client';
import { LOCALE_COOKIE, MARKET_COOKIE, secureCookies } from '../_lib/shop';

const YEAR = 365 * 86400;

/** Keeps the shopper's market and language (`se|sv-SE`) in cookies; only pairs the Site offers. */
export async function setPreferences(formData: FormData): Promise<void> {
  const [marketId, locale] = String(formData.get('preference') ?? '').split('|');
  const site = await fetchSite();
  const market = site.markets.find((m) => m.id === marketId);
  if (!market || !locale || !market.locales.includes(locale)) return;
  const jar = await cookies();
  const options = { httpOnly: true, sameSite: 'lax' as const, secure: await secureCookies(), path: '/', maxAge: YEAR };
  jar.set(MARKET_COOKIE, market.id, options);
  jar.set(LOCALE_COOKIE, locale, options);
}
