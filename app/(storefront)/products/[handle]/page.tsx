import type { Metadata } from 'next';
import { fetchAvailabilityBatch } from '@/lib/site-client';
import { ProductView, bundleViews, productMetadata } from '../../_components/product-view';
import { RelatedProducts } from '../../_components/related-products';
import { NotSoldHere } from '../../_components/not-sold-here';
import { nameBundleItems, productOrNotSold, relatedRead } from '../../_lib/data';
import { locality, requestOrigin, shop } from '../../_lib/shop';

/**
 * The product page rendered on request, from the shopper's cookies and headers. The proxy
 * normally sends product pages to the cached copy of this page (app/storefront-cache);
 * this one answers when it cannot (no credential, a separately deployed API, a failure).
 */
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<{ variant?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ handle }, { site }, where] = await Promise.all([params, shop(), locality()]);
  const read = await productOrNotSold(handle, where);
  if ('notSold' in read) return { title: `${read.notSold.title} | ${site.name}` };
  return productMetadata(read.product, site.name);
}

export default async function ProductPage({ params, searchParams }: Props) {
  const [{ handle }, { variant: wanted }, { t, locale, market, site }, where] = await Promise.all([
    params,
    searchParams,
    shop(),
    locality(),
  ]);
  const read = await productOrNotSold(handle, where);
  // priced in other markets only: the page says so (never the 404 of a product that is not there)
  if ('notSold' in read) return <NotSoldHere notSold={read.notSold} market={market.id} markets={site.markets} t={t} fullLoads={false} />;
  const p = read.product;
  // Its related section's read goes out with the others, not after them.
  relatedRead(p, { market: market.id, locale });
  // The page still renders from the product read if these fail: availability then comes
  // from the product (and the browser refreshes it), bundle items show their variant ids.
  const [availability, names, origin] = await Promise.all([
    fetchAvailabilityBatch(p.variants.map((v) => v.id)).catch(() => null),
    nameBundleItems(p.bundles, { market: market.id, locale }).catch(() => new Map()),
    requestOrigin(),
  ]);
  return (
    <>
      <ProductView
        product={p}
        t={t}
        locale={locale}
        origin={origin}
        availability={availability}
        bundles={bundleViews(p, locale, names)}
        variantId={typeof wanted === 'string' ? wanted : undefined}
        taxInclusive={market.taxInclusive}
        fullLoads={false}
      />
      <RelatedProducts product={p} where={{ market: market.id, locale }} t={t} fullLoads />
    </>
  );
}
