import type { ReactNode } from 'react';
import type { Market } from '@/lib/contract/catalog';
import type { Shop } from '../_lib/shop';
import { PageViewBeacon } from './analytics-beacon';
import { Footer } from './footer';
import { Header } from './header';

type Props = {
  shop: Shop;
  navigation: { handle: string; title: string }[];
  /** The markets named in the page's locale (the snapshot's); without them, the Site's (its default locale's names). */
  markets?: Market[];
  /** Null on a cached page: the header asks for it in the browser. */
  cartCount: number | null;
  /** The page has a root layout of its own: its links to the shop's other pages are plain (ShopLink). */
  fullLoads: boolean;
  children: ReactNode;
};

/** Header, main and footer: the same on pages rendered on request and on cached product pages. */
export function ShopChrome({ shop, navigation, markets, cartCount, fullLoads, children }: Props) {
  const named = markets ?? shop.site.markets;
  return (
    <>
      <Header shop={shop} navigation={navigation} markets={named} cartCount={cartCount} fullLoads={fullLoads} />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer
        shop={shop}
        navigation={navigation}
        marketName={named.find((m) => m.id === shop.market.id)?.name ?? shop.market.name}
        fullLoads={fullLoads}
      />
      <PageViewBeacon />
    </>
  );
}
