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
  children: ReactNode;
};

/** Header, main and footer: the same on pages rendered on request and on cached product pages. */
export function ShopChrome({ shop, navigation, markets, cartCount, children }: Props) {
  const named = markets ?? shop.site.markets;
  return (
    <>
      <Header shop={shop} navigation={navigation} markets={named} cartCount={cartCount} />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer shop={shop} navigation={navigation} marketName={named.find((m) => m.id === shop.market.id)?.name ?? shop.market.name} />
      <PageViewBeacon />
    </>
  );
}
