import { cookies } from 'next/headers';
import { fetchSite } from '@/lib/site-client';
import { seeOther } from '../_lib/shop-endpoints';
import { LOCALE_COOKIE, MARKET_COOKIE, secureCookies } from '../_lib/shop';

const YEAR = 365 * 86400;

const HERE = 'http://shop.invalid';

/**
 * A path on this site (`/products/x?variant=y`), never another origin (`//evil`, `/\evil`),
 * as the URL parser writes it: percent-encoded, so `/€` or `/商品` becomes a Location header
 * (which holds bytes, not text) instead of an error.
 */
function localPath(value: string | null): string | null {
  if (value === null || value.length > 2048) return null;
  if (!/^\/(?![/\\])[^\s\\]*$/.test(value)) return null;
  const url = new URL(value, HERE);
  return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : null;
}

// GET /visit?market=se&locale=sv-SE&to=/products/x — where the links in the shop's mails lead:
// the page opens in the subscriber's market and language (kept in the same cookies as the
// market switcher's), whatever this browser chose before. Only pairs the Site offers are
// kept; anything else just goes on to the page. Never to another site.
export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const to = localPath(url.searchParams.get('to')) ?? '/';
  const marketId = url.searchParams.get('market');
  const locale = url.searchParams.get('locale');
  if (marketId && locale) {
    const site = await fetchSite().catch(() => null);
    const market = site?.markets.find((m) => m.id === marketId);
    if (market && market.locales.includes(locale)) {
      const jar = await cookies();
      const options = { httpOnly: true, sameSite: 'lax' as const, secure: await secureCookies(), path: '/', maxAge: YEAR };
      jar.set(MARKET_COOKIE, market.id, options);
      jar.set(LOCALE_COOKIE, locale, options);
    }
  }
  const response = seeOther(to);
  // The next page may carry a token in its URL: it is never sent on as a Referer.
  response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
}
