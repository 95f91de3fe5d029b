'use server';
import { headers } from 'next/headers';
import { RedirectType, redirect } from 'next/navigation';
import { fetchSite } from '@/lib/site-client';
import { keepPreferences } from '../_lib/shop';

/**
 * Keeps the shopper's market and language (`se|sv-SE`) in cookies; only pairs the Site
 * offers. Then it sends the shopper back to the page the form was on, read anew: a product
 * page may be a cached copy chosen for the old market (the proxy picks the copy from the
 * cookies), so re-rendering the page this request is for would show the old prices.
 */
export async function setPreferences(formData: FormData): Promise<void> {
  const [marketId, locale] = String(formData.get('preference') ?? '').split('|');
  const site = await fetchSite();
  const market = site.markets.find((m) => m.id === marketId);
  if (!market || !locale || !market.locales.includes(locale)) return;
  await keepPreferences(market.id, locale);
  const back = localPath(formData.get('returnTo')) ?? refererPath(await headers());
  if (back) redirect(back, RedirectType.replace);
}

/** A path on this site (`/products/x?variant=y`), never another origin (`//evil`, `/\evil`). */
function localPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : null;
}

/** The page the form was posted from, when the browser said so and it is this site. */
function refererPath(list: Headers): string | null {
  const referer = list.get('referer');
  const host = list.get('x-forwarded-host') ?? list.get('host');
  if (!referer || !host) return null;
  try {
    const url = new URL(referer);
    return url.host === host.split(',')[0] ? localPath(url.pathname + url.search) : null;
  } catch {
    return null;
  }
}
