import type { Metadata } from 'next';
import { ProductView, bundleViews, productMetadata } from '@/app/(storefront)/_components/product-view';
import { RelatedProducts } from '@/app/(storefront)/_components/related-products';
import { NotSoldHere } from '@/app/(storefront)/_components/not-sold-here';
import { nameBundleItems, productOrNotSold, relatedRead } from '@/app/(storefront)/_lib/data';
import { shopIn } from '@/app/(storefront)/_lib/shop';
import { dictionary, uiLanguage } from '@/app/(storefront)/_lib/i18n';
import { siteFor } from '@/app/storefront-cache/_lib/chrome';
import { originOf, type CachedPageParams } from '@/app/storefront-cache/_lib/params';
import { logPageReads } from '@/app/storefront-cache/_lib/reads';

/**
 * A product page as Next caches it: rendered on the first request for its key, then served
 * from memory (on-demand ISR: no paths at build time, when no API runs). The site client's
 * `no-store` fetches are allowed by force-static and never land in Next's data cache, so the
 * page's data is as fresh as the request that rendered it. No time-based revalidation: the
 * key carries the catalog version, so a page never needs to change under its key.
 */
export const dynamic = 'force-static';
export const dynamicParams = true;
export const revalidate = false;

export function generateStaticParams(): Params[] {
  return [];
}

type Params = CachedPageParams & { handle: string };
type Props = { params: Promise<Params> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const all = await params;
  logPageReads(all);
  const { market, locale, handle, catalog } = all;
  const [current, read] = await Promise.all([siteFor(catalog), productOrNotSold(handle, { market, locale })]);
  if ('notSold' in read) return { title: `${read.notSold.title} | ${current.name}` };
  return productMetadata(read.product, current.name);
}

export default async function CachedProductPage({ params }: Props) {
  const all = await params;
  logPageReads(all);
  const { origin, market, locale, handle, catalog } = all;
  const where = { market, locale };
  // The Site read is shared by every page of the key (siteFor); the layout checked the pair.
  const [current, read] = await Promise.all([siteFor(catalog), productOrNotSold(handle, where)]);
  if ('notSold' in read) {
    // kept like any page of this catalog version: a price added later moves the version
    return <NotSoldHere notSold={read.notSold} market={market} markets={current.markets} t={dictionary(uiLanguage(locale))} fullLoads />;
  }
  const p = read.product;
  const { taxInclusive } = shopIn(current, where).market;
  // Unlike the page rendered on request, no fallback: a page missing its bundle names would
  // be kept for the whole catalog version; a failure here is a 500 that is not kept, and the
  // next request renders the page anew. No availability read either: a stock level read now
  // would be kept as long as the page, so the page shows the product's own statuses and the
  // browser asks for live ones as it opens (product-purchase.tsx).
  relatedRead(p, where); // its related section's read goes out beside the bundle names
  const names = await nameBundleItems(p.bundles, where);
  const t = dictionary(uiLanguage(locale));
  return (
    <>
      <ProductView
        product={p}
        t={t}
        locale={locale}
        origin={originOf(origin)}
        availability={null}
        bundles={bundleViews(p, locale, names)}
        taxInclusive={taxInclusive}
        fullLoads
      />
      <RelatedProducts product={p} where={where} t={t} fullLoads={false} required />
    </>
  );
}
