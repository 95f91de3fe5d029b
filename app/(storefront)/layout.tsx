import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import { isSiteApiError, noteApiFailure, shopperLimitedFor } from '@/lib/site-client';
import './storefront.css';
import { ChromeStringsProvider } from './_components/i18n-context';
import { ShopChrome } from './_components/shop-chrome';
import { ShopUnavailable } from './_components/shop-unavailable';
import { itemCount, readCart } from './_lib/cart';
import { documentMetadata, documentViewport } from './_lib/document';
import { dictionary, uiLanguage } from './_lib/i18n';
import { chromeStrings } from './_lib/i18n/islands';
import { buyerIp, LOCALE_COOKIE, requestOrigin, shop, snapshot } from './_lib/shop';

export async function generateMetadata(): Promise<Metadata> {
  // Canonical and Open Graph URLs resolve against the host the shopper (or crawler) used.
  return documentMetadata(await requestOrigin());
}

/** The shopper's language when the API (which knows the Site's default) cannot be asked. */
async function cookieLanguage() {
  return uiLanguage((await cookies()).get(LOCALE_COOKIE)?.value ?? 'en');
}

export const viewport: Viewport = documentViewport;

/**
 * The root layout of the pages that render on request, from the shopper's cookies. Product
 * pages normally come from the page cache instead (app/storefront-cache), which has a root
 * layout of its own: a root layout shared with them would read the cookies for every page
 * and make all of them render on request. Moving between the two is a full page load.
 *
 * Nothing here may call the API at build time, when no server runs. The page language
 * follows the shopper's locale; if the API is down the page says so, in the language of
 * the shopper's locale cookie (else English). Its status is 503: the proxy checks that the
 * API answers before a shop page renders (lib/site-client/health.ts); telling it of this
 * failure makes the next request check again.
 */
export default async function StorefrontLayout({ children }: { children: ReactNode }) {
  await connection();
  const { context, overBudget } = await shop().then(
    (context) => ({ context, overBudget: false }),
    (error: unknown) => ({ context: null, overBudget: isSiteApiError(error, 'rate_limited') }),
  );
  if (!context) {
    // A shopper over their own budget is no outage: the API answers, just not them for now
    // (their next pages are answered 429 by the proxy: lib/site-client/shopper-limits.ts).
    const wait = overBudget ? (shopperLimitedFor(await buyerIp()) ?? 60) : null;
    if (wait === null) noteApiFailure();
    const lang = await cookieLanguage();
    return (
      <html lang={lang}>
        <body>
          <ShopUnavailable t={dictionary(lang)} waitSeconds={wait} />
        </body>
      </html>
    );
  }
  // Navigation is chrome: if it fails the page below still gets its chance to render.
  // The snapshot also names the markets in the shopper's locale (switcher, footer).
  const [{ navigation, markets }, cart] = await Promise.all([
    snapshot().then(
      (s) => ({ navigation: s.navigation, markets: s.markets }),
      () => ({ navigation: [], markets: undefined }),
    ),
    readCart(),
  ]);
  return (
    <html lang={context.locale}>
      <body>
        <ChromeStringsProvider strings={chromeStrings(context.t)}>
          <ShopChrome shop={context} navigation={navigation} markets={markets} cartCount={itemCount(cart)} fullLoads={false}>
            {children}
          </ShopChrome>
        </ChromeStringsProvider>
      </body>
    </html>
  );
}
