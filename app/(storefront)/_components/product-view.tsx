import type { Metadata } from 'next';
import type { AvailabilityBatch, Product } from '@/lib/contract/catalog';
import type { BundleItemName } from '../_lib/data';
import { formatMoney } from '../_lib/format';
import type { Dictionary } from '../_lib/i18n';
import { bundleStrings, purchaseStrings } from '../_lib/i18n/islands';
import { productJsonLd } from '../products/[handle]/json-ld';
import { ViewBeacon } from './analytics-beacon';
import { BundleOffer, type BundleView } from './bundle-offer';
import { ProductGallery } from './product-gallery';
import { ProductPurchase, type VariantView } from './product-purchase';
import { SelectionProvider } from './product-selection';
import { ShopLink } from './shop-link';

/** Title, description, canonical URL and Open Graph image of a product page. */
/**
 * A page title names the shop once: a merchant's SEO title often names it already (the
 * demo catalog's do), a product's own title does not.
 */
function withShopName(title: string, siteName: string): string {
  return title.toLowerCase().includes(siteName.toLowerCase()) ? title : `${title} | ${siteName}`;
}

export function productMetadata(p: Product, siteName: string): Metadata {
  const image = p.images[0];
  return {
    title: withShopName(p.seo.title || p.title, siteName),
    description: p.seo.description || p.description.slice(0, 160),
    alternates: { canonical: `/products/${p.handle}` },
    openGraph: {
      type: 'website',
      title: p.seo.title || p.title,
      images: image ? [{ url: image.url, width: image.width, height: image.height, alt: image.alt }] : [],
    },
  };
}

/** Bundles with their items named and linked (an item left unnamed shows its variant id). */
export function bundleViews(p: Product, locale: string, names: Map<string, BundleItemName>): BundleView[] {
  return p.bundles.map((b) => ({
    id: b.id,
    title: b.title,
    price: formatMoney(b.price, locale),
    items: b.items.map((item) => {
      const name = names.get(item.variantId);
      return {
        quantity: item.quantity,
        label: name ? `${name.productTitle} — ${name.variantTitle}` : item.variantId,
        href: name ? `/products/${name.productHandle}?variant=${encodeURIComponent(item.variantId)}` : null,
      };
    }),
  }));
}

type Props = {
  product: Product;
  t: Dictionary;
  locale: string;
  /** Absolute URLs of the structured data start with it. */
  origin: string;
  /** Fresh, coarse availability for the picker (null: the product's own statuses, refreshed by the browser). */
  availability: AvailabilityBatch | null;
  bundles: BundleView[];
  /** The variant to show first; otherwise the first one in stock. `?variant=` also picks one in the browser. */
  variantId?: string;
  /** Whether the market's prices include tax (its `taxInclusive`): the note under the price says so. */
  taxInclusive: boolean;
  /** A kept page, under a root layout of its own: its links to the shop's other pages are plain (ShopLink). */
  fullLoads: boolean;
};

/**
 * "inkl. MwSt., zzgl. Versand" under the price, from the market's own data, with the shipping
 * costs of each market a link away (/shipping). The same for every variant and shopper of
 * the market, so it may be part of a cached page.
 */
export function PriceNote({ taxInclusive, t, fullLoad }: { taxInclusive: boolean; t: Dictionary; fullLoad: boolean }) {
  const [before, after = ''] = (taxInclusive ? t.priceTaxIncluded : t.priceTaxExcluded).split('{shipping}');
  return (
    <p className="price-note muted" data-testid="price-note">
      {before}
      <ShopLink href="/shipping" fullLoad={fullLoad}>
        {t.priceShipping}
      </ShopLink>
      {after}
    </p>
  );
}

/** The product page's content, the same whether the page renders on request or comes from the page cache. */
export function ProductView({ product: p, t, locale, origin, availability, bundles, variantId, taxInclusive, fullLoads }: Props) {
  const initial = p.variants.find((v) => v.id === variantId) ?? p.variants.find((v) => v.availability !== 'out_of_stock') ?? p.variants[0];
  const variants: VariantView[] = p.variants.map((v) => ({
    id: v.id,
    title: v.title,
    sku: v.sku,
    options: v.options,
    availability: v.availability,
    price: formatMoney(v.price, locale),
    compareAtPrice: v.compareAtPrice ? formatMoney(v.compareAtPrice, locale) : null,
  }));

  return (
    <>
      <nav className="breadcrumbs" aria-label={t.breadcrumb}>
        <ol>
          <li>
            <ShopLink href="/" fullLoad={fullLoads}>
              {t.home}
            </ShopLink>
          </li>
          <li>
            <ShopLink href="/products" fullLoad={fullLoads}>
              {t.allProducts}
            </ShopLink>
          </li>
          <li>
            <span aria-current="page">{p.title}</span>
          </li>
        </ol>
      </nav>
      <SelectionProvider initial={initial?.options ?? {}} variants={variants}>
        <article className="product">
          <ProductGallery
            images={p.images}
            variants={p.variants.map((v) => ({ options: v.options, imageUrl: v.image?.url ?? null }))}
            label={t.productImages}
          />
          <div className="product-info">
            <h1>{p.title}</h1>
            {initial ? (
              <ProductPurchase
                productHandle={p.handle}
                options={p.options}
                variants={variants}
                initialAvailability={availability ? { data: availability.data, asOf: availability.asOf } : null}
                priceNote={<PriceNote taxInclusive={taxInclusive} t={t} fullLoad={fullLoads} />}
                t={purchaseStrings(t)}
                fullLoads={fullLoads}
              />
            ) : null}
            <section className="description" aria-labelledby="description-title">
              <h2 id="description-title">{t.description}</h2>
              {p.description.split(/\n{2,}/).map((paragraph, i) => (
                <p key={i}>{paragraph}</p>
              ))}
            </section>
            {bundles.length ? (
              <section aria-labelledby="bundles-title" className="mt-24">
                <h2 id="bundles-title">{t.bundles}</h2>
                <ul className="bundle-list">
                  {bundles.map((b) => (
                    <BundleOffer key={b.id} productHandle={p.handle} bundle={b} t={bundleStrings(t)} fullLoads={fullLoads} />
                  ))}
                </ul>
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
