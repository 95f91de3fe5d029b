import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { ShopChrome } from '@/app/(storefront)/_components/shop-chrome';
import { shopIn } from '@/app/(storefront)/_lib/shop';
import { siteFor, snapshotFor } from '@/app/storefront-cache/_lib/chrome';
import type { CachedPageParams } from '@/app/storefront-cache/_lib/params';

export const dynamic = 'force-static';

/**
 * The shop's header, navigation and footer for the key's market and locale. The cart count
 * is the shopper's own, so the header learns it in the browser. A failed read throws (and
 * nothing is cached); the page rendered on request shows partial chrome instead.
 */
export default async function CachedChromeLayout({ children, params }: { children: ReactNode; params: Promise<CachedPageParams> }) {
  const { market, locale, catalog } = await params;
  const current = shopIn(await siteFor(catalog), { market, locale });
  // The proxy picks pairs the Site offers; a pair it no longer offers is no page.
  if (current.market.id !== market || current.locale !== locale) notFound();
  const { navigation, markets } = await snapshotFor(catalog, market, locale);
  return (
    <ShopChrome shop={current} navigation={navigation} markets={markets} cartCount={null} fullLoads>
      {children}
    </ShopChrome>
  );
}
