import type { ProductSummary } from '@/lib/contract/catalog';
import { formatMoney } from '../_lib/format';
import { fill, type Dictionary } from '../_lib/i18n';
import { AvailabilityBadge } from './availability-badge';
import { ShopLink } from './shop-link';

/**
 * `heading`: the level of the card's title, one below the section it sits in (h2 under a
 * page's h1, h3 under a home page section's h2), so no level is skipped.
 */
type Heading = 'h2' | 'h3';
type Props = {
  product: ProductSummary;
  locale: string;
  t: Dictionary;
  /** The card is not on a kept product page: its product page loads in full (ShopLink). */
  fullLoad: boolean;
  priority?: boolean;
  heading?: Heading;
};

/**
 * In a list filtered by variant (Color: Black), the card is the variants the filters matched:
 * their picture, price and availability, and a link that opens the product on the first of
 * them; otherwise the whole product.
 */
export function ProductCard({ product, locale, t, fullLoad, priority = false, heading: Title = 'h3' }: Props) {
  const { match } = product;
  const shown = match ?? product;
  const image = match?.image ?? product.featuredImage;
  const { min, max } = shown.priceRange;
  const ranged = min.amount !== max.amount;
  const onSale = shown.compareAtPrice !== null;
  const href = match ? `/products/${product.handle}?variant=${encodeURIComponent(match.variantIds[0]!)}` : `/products/${product.handle}`;
  return (
    <li className="product-card">
      <ShopLink href={href} fullLoad={fullLoad}>
        <div className="thumb">
          {image ? (
            // eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser
            <img src={image.url} alt="" width={image.width} height={image.height} loading={priority ? 'eager' : 'lazy'} />
          ) : null}
        </div>
        <Title className="card-title">{product.title}</Title>
      </ShopLink>
      <p className="price m-0">
        <span className={onSale ? 'price-sale' : undefined}>
          {ranged ? `${t.from} ` : ''}
          {formatMoney(min, locale)}
        </span>
        {shown.compareAtPrice ? <WasPrice price={formatMoney(shown.compareAtPrice, locale)} t={t} /> : null}
      </p>
      <AvailabilityBadge status={shown.availability} t={t} />
    </li>
  );
}

type GridProps = { products: ProductSummary[]; locale: string; t: Dictionary; fullLoads: boolean; eager?: number; heading?: Heading };

export function ProductGrid({ products, locale, t, fullLoads, eager = 0, heading }: GridProps) {
  return (
    <ul className="product-grid">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} locale={locale} t={t} fullLoad={fullLoads} priority={i < eager} heading={heading} />
      ))}
    </ul>
  );
}

/** The struck-through old price; screen readers hear "Was 299 kr" instead of a bare number. */
export function WasPrice({ price, t }: { price: string; t: Dictionary }) {
  return (
    <>
      <del aria-hidden="true">{price}</del>
      <span className="visually-hidden">{fill(t.priceWas, { price })}</span>
    </>
  );
}
