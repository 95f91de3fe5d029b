import type { Market } from '@/lib/contract/catalog';
import { searchBoxStrings } from '../_lib/i18n/islands';
import type { Shop } from '../_lib/shop';
import { CartLink } from './cart-link';
import { MarketSwitcher } from './market-switcher';
import { NavLinks } from './nav-links';
import { SearchBox } from './search-box';
import { ShopLink } from './shop-link';

/** `cartCount` null: a cached page, which learns the count in the browser. */
type Props = {
  shop: Shop;
  navigation: { handle: string; title: string }[];
  markets: Market[];
  cartCount: number | null;
  fullLoads: boolean;
};

export function Header({ shop, navigation, markets, cartCount, fullLoads }: Props) {
  const { t, site, market, locale, texts } = shop;
  const links = [
    { href: '/products', title: t.allProducts },
    ...navigation.map((c) => ({ href: `/collections/${c.handle}`, title: c.title })),
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        {t.skipToContent}
      </a>
      {/* A named region: every part of the page belongs to a landmark (not in the banner
          below, whose sticky bar would then scroll away with it). */}
      <section className="topbar" aria-label={t.shopSettings}>
        <div className="container">
          <p>{texts.tagline ?? ''}</p>
          <MarketSwitcher markets={markets} market={market.id} locale={locale} label={t.marketAndLanguage} apply={t.apply} />
        </div>
      </section>
      <header className="site-header">
        <div className="container bar">
          <ShopLink className="brand" href="/" fullLoad={fullLoads}>
            {site.name}
          </ShopLink>
          <NavLinks links={links} label={t.mainNav} menu={t.menu} fullLoads={fullLoads} />
          <SearchBox t={searchBoxStrings(t)} />
          <CartLink count={cartCount} label={t.cart} fullLoad={fullLoads} />
        </div>
      </header>
    </>
  );
}
