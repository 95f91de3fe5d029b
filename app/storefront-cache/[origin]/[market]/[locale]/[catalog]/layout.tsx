import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import '@/app/(storefront)/storefront.css';
import { ChromeStringsProvider } from '@/app/(storefront)/_components/i18n-context';
import { documentMetadata, documentViewport } from '@/app/(storefront)/_lib/document';
import { dictionary, uiLanguage } from '@/app/(storefront)/_lib/i18n';
import { chromeStrings } from '@/app/(storefront)/_lib/i18n/islands';
import { originOf, type CachedPageParams } from '@/app/storefront-cache/_lib/params';

/**
 * Cached product pages (see proxy.ts). The path is the cache key: the origin the page's
 * absolute URLs use, the market, the locale and the Site's catalog version (`siteId.version`).
 * Nothing below reads cookies, headers or the query: everything the HTML depends on is in
 * the key, so Next keeps the rendered page (on first request, in memory) and serves it to
 * every shopper whose request maps to the same key. A catalog change is a new key.
 *
 * This is a root layout of its own: the shop's other root layout reads the cookies.
 */
export const dynamic = 'force-static';

export async function generateMetadata({ params }: { params: Promise<CachedPageParams> }): Promise<Metadata> {
  return documentMetadata(originOf((await params).origin));
}

export const viewport: Viewport = documentViewport;

export default async function CachedShopLayout({ children, params }: { children: ReactNode; params: Promise<CachedPageParams> }) {
  const { locale } = await params;
  return (
    <html lang={locale}>
      <body>
        <ChromeStringsProvider strings={chromeStrings(dictionary(uiLanguage(locale)))}>{children}</ChromeStringsProvider>
      </body>
    </html>
  );
}
