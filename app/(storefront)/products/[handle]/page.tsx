import type { Metadata } from 'next';
import { Suspense } from 'react';
import Link from 'next/link';
import type { Product } from '@/lib/contract/catalog';
import { fetchAvailabilityBatch } from '@/lib/site-client';
import { ViewBeacon } from '../../_components/analytics-beacon';
import { BundleOffer, type BundleView } from '../../_components/bundle-offer';
import { ProductGallery } from '../../_components/product-gallery';
import { ProductPurchase, type VariantView } from '../../_components/product-purchase';
import { SelectionProvider } from '../../_components/product-selection';
import { Skeleton } from '../../_components/skeleton';
import { product as readProduct, resolveVariants } from '../../_lib/data';
import { formatMoney } from '../../_lib/format';
import { requestOrigin, shop } from '../../_lib/shop';
import { productJsonLd } from './json-ld';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<{ variant?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ handle }, { site }] = await Promise.all([params, shop()]);
  const p = await readProduct(handle);
  const image = p.images[0];
  return {
    title: `${p.seo.title || p.title} | ${site.name}`,
    description: p.seo.description || p.description.slice(0, 160),
    alternates: { canonical: `/products/${p.handle}` },
    openGraph: { type: 'website', title: p.seo.title || p.title, images: image ? [{ url: image.url, width: image.width, height: image.height, alt: image.alt }] : [] },
  };
}

export default async function ProductPage({ params, searchParams }: Props) {
  const [{ handle }, { variant: wanted }, { t, locale }] = await Promise.all([params, searchParams, shop()]);
  const p = await readProduct(handle);
  // Fresh, coarse availability for the picker; the page still renders from the product read if this fails.
  const [availability, origin] = await Promise.all([
    fetchAvailabilityBatch(p.variants.map((v) => v.id)).catch(() => null),
    requestOrigin(),
  ]);
  const initial =
    p.variants.find((v) => v.id === wanted) ??
    p.variants.find((v) => v.availability !== 'out_of_stock') ??
    p.variants[0];
  const variants: VariantView[] = p.variants.map((v) => ({
    id: v.id, title: v.title, sku: v.sku, options: v.options, availability: v.availability,
    price: formatMoney(v.price, locale), compareAtPrice: v.compareAtPrice ? formatMoney(v.compareAtPrice, locale) : null,
  }));

  return (
    <>
      <nav className="breadcrumbs" aria-label={t.breadcrumb}>
        <ol>
          <li><Link href="/">{t.home}</Link></li>
          <li><Link href="/products">{t.allProducts}</Link></li>
          <li><span aria-current="page">{p.title}</span></li>
        </ol>
      </nav>
      <SelectionProvider initial={initial?.options ?? {}}>
      <article className="product">
        <ProductGallery images={p.images} label={t.productImages} />
        <div className="product-info">
          <h1>{p.title}</h1>
          {initial ? (
            <ProductPurchase
              productHandle={p.handle}
              options={p.options}
              variants={variants}
              initialAvailability={availability ? { data: availability.data, asOf: availability.asOf } : null}
              restockConsent={t.restockConsent}
            />
          ) : null}
          <section className="description" aria-labelledby="description-title">
            <h2 id="description-title">{t.description}</h2>
            {p.description.split(/\n{2,}/).map((paragraph, i) => <p key={i}>{paragraph}</p>)}
          </section>
          {p.bundles.length ? (
            <section aria-labelledby="bundles-title" style={{ marginTop: 24 }}>
              <h2 id="bundles-title">{t.bundles}</h2>
              <Suspense fallback={<Skeleton label={t.loading} height={180} />}>
                <Bundles product={p} locale={locale} />
              </Suspense>
            </section>
          ) : null}
        </div>
      </article>
      </SelectionProvider>
      <script
        type="application/ld+json"
        // JSON-LD must be raw JSON; `<` is escaped so no product text can close the script tag.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(productJsonLd(p, origin, initial?.id)).replace(/</g, '\\u003c') }}
      />
      <ViewBeacon event={{ type: 'product_view', productHandle: p.handle }} />
    </>
  );
}

/** Bundle items are variants of other products too: named and linked from the catalog (streamed in). */
async function Bundles({ product, locale }: { product: Product; locale: string }) {
  const bundles = await bundleViews(product, locale);
  return (
    <ul className="bundle-list">
      {bundles.map((b) => <BundleOffer key={b.id} productHandle={product.handle} bundle={b} />)}
    </ul>
  );
}

async function bundleViews(p: Product, locale: string): Promise<BundleView[]> {
  const ids = [...new Set(p.bundles.flatMap((b) => b.items.map((i) => i.variantId)))].sort();
  const resolved = await resolveVariants(ids.join(',')).catch(() => new Map());
  return p.bundles.map((b) => ({
    id: b.id,
    title: b.title,
    price: formatMoney(b.price, locale),
    items: b.items.map((item) => {
      const found = resolved.get(item.variantId);
      return {
        quantity: item.quantity,
        label: found ? `${found.product.title} — ${found.variant.title}` : item.variantId,
        href: found ? `/products/${found.product.handle}?variant=${encodeURIComponent(item.variantId)}` : null,
      };
    }),
  }));
}
