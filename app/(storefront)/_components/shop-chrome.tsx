import type { ReactNode } from 'react';
import type { Shop } from '../_lib/shop';
import { PageViewBeacon } from './analytics-beacon';
import { Footer } from './footer';
import { Header } from './header';

type Props = {
  shop: Shop;
  navigation: { handle: string; title: string }[];
  /** Null on a cached page: the header asks for it in the browser. */
  cartCount: number | null;
  children: ReactNode;
};

/** Header, main and footer: the same on pages rendered on request and on cached product pages. */
export function ShopChrome({ shop, navigation, cartCount, children }: Props) {
  return (
    <>
      <Header shop={shop} navigation={navigation} cartCount={cartCount} />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer shop={shop} navigation={navigation} />
      <PageViewBeacon />
    </>
  );
}
