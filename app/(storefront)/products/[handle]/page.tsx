import type { Metadata } from 'next';
import { fetchAvailabilityBatch } from '@/lib/site-client';
import { ProductView, bundleViews, productMetadata } from '../../_components/product-view';
import { RelatedProducts } from '../../_components/related-products';
import { nameBundleItems, product as readProduct } from '../../_lib/data';
import { requestOrigin, shop } from '../../_lib/shop';

/**
 * The product page rendered on request, from the shopper's cookies and headers. The proxy
 * normally sends product pages to the cached copy of this page (app/storefront-cache);
 * this one answers when it cannot (no credential, a separately deployed API, a failure).
 */
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<{ variant?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ handle }, { site }] = await Promise.all([params, shop()]);
  return productMetadata(await readProduct(handle), site.name);
}

export default async function ProductPage({ params, searchParams }: Props) {
  const [{ handle }, { variant: wanted }, { t, locale, market }] = await Promise.all([params, searchParams, shop()]);
  const p = await readProduct(handle);
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
      />
      <RelatedProducts product={p} where={{ market: market.id, locale }} t={t} />
    </>
  );
}
