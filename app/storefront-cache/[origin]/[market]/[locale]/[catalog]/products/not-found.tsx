import type { Metadata } from 'next';
import { ShopNotFound } from '@/app/(storefront)/_components/shop-not-found';
import { dictionary, uiLanguage } from '@/app/(storefront)/_lib/i18n';
import { siteFor } from '@/app/storefront-cache/_lib/chrome';
import type { CachedPageParams } from '@/app/storefront-cache/_lib/params';

/** The product's own metadata never ran: the 404 is titled in the key's language. */
export async function generateMetadata({ params }: { params: Promise<CachedPageParams> }): Promise<Metadata> {
  const { locale, catalog } = await params;
  const title = dictionary(uiLanguage(locale)).notFoundTitle;
  const site = await siteFor(catalog).catch(() => null);
  return { title: site ? `${title} | ${site.name}` : title };
}

/** An unknown, draft or archived product: the shop's 404 (cached for this catalog version like any page). */
export default function NotFound() {
  return <ShopNotFound fullLoad />;
}
