import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './storefront.css';
import { Header } from './_components/header';
import { Footer } from './_components/footer';
import { Providers } from './_components/providers';
import { PageViewBeacon } from './_components/analytics-beacon';
import { ShopUnavailable } from './_components/shop-unavailable';
import { itemCount, readCart } from './_lib/cart';
import { shop, snapshot } from './_lib/shop';
import { dictionary } from './_lib/i18n';

export default async function StorefrontLayout({ children }: { children: ReactNode }) {
  await connection();
  const context = await shop().catch(() => null);
  if (!context) return <ShopUnavailable t={dictionary('en')} />;
  // Navigation is chrome: if it fails the page below still gets its chance to render.
  const [navigation, cart] = await Promise.all([snapshot().then((s) => s.navigation, () => []), readCart()]);
  return (
    <Providers dictionary={context.t}>
      <Header shop={context} navigation={navigation} cartCount={itemCount(cart)} />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer shop={context} navigation={navigation} />
      <PageViewBeacon />
    </Providers>
  );
}
