import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import './(storefront)/storefront.css';
import { ChromeStringsProvider } from './(storefront)/_components/i18n-context';
import { ShopChrome } from './(storefront)/_components/shop-chrome';
import { ShopNotFound } from './(storefront)/_components/shop-not-found';
import { itemCount, readCart } from './(storefront)/_lib/cart';
import { dictionary, uiLanguage } from './(storefront)/_lib/i18n';
import { chromeStrings } from './(storefront)/_lib/i18n/islands';
import { LOCALE_COOKIE, shop, snapshot } from './(storefront)/_lib/shop';

/** The shopper's language from the locale cookie alone (the API could not be asked). */
async function cookieLanguage() {
  return uiLanguage((await cookies()).get(LOCALE_COOKIE)?.value ?? 'en');
}

export async function generateMetadata(): Promise<Metadata> {
  await connection();
  const context = await shop().catch(() => null);
  const title = (context?.t ?? dictionary(await cookieLanguage())).notFoundTitle;
  // Titled like the shop's own 404s (app/(storefront)/not-found.tsx).
  return { title: context ? `${title} | ${context.site.name}` : title };
}

/**
 * Unknown URLs outside the shop's routes. The app has two root layouts (pages rendered on
 * request, and cached product pages), so there is no one layout to compose this 404 from:
 * it draws the shop's chrome itself, in the shopper's market and language, like the shop's
 * own 404. If the API cannot be asked it is still a 404 in the cookie's language, unadorned.
 *
 * Rendered on request, not prerendered: its scripts must carry the request's CSP nonce
 * (proxy.ts), which a document built ahead of time cannot know.
 */
export default async function GlobalNotFound() {
  await connection();
  const context = await shop().catch(() => null);
  if (!context) {
    const lang = await cookieLanguage();
    return (
      <html lang={lang}>
        <body>
          <ChromeStringsProvider strings={chromeStrings(dictionary(lang))}>
            <main className="container">
              <ShopNotFound fullLoad />
            </main>
          </ChromeStringsProvider>
        </body>
      </html>
    );
  }
  const [{ navigation, markets }, cart] = await Promise.all([
    snapshot().then(
      (s) => ({ navigation: s.navigation, markets: s.markets }),
      () => ({ navigation: [], markets: undefined }),
    ),
    readCart().catch(() => null),
  ]);
  return (
    <html lang={context.locale}>
      <body>
        <ChromeStringsProvider strings={chromeStrings(context.t)}>
          <ShopChrome shop={context} navigation={navigation} markets={markets} cartCount={cart ? itemCount(cart) : null} fullLoads>
            <ShopNotFound fullLoad />
          </ShopChrome>
        </ChromeStringsProvider>
      </body>
    </html>
  );
}
