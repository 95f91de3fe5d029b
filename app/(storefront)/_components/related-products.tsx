import type { Product } from '@/lib/contract/catalog';
import { RELATED_SHOWN, relatedRead } from '../_lib/data';
import { fill, type Dictionary } from '../_lib/i18n';
import { ProductGrid } from './product-card';

type Props = {
  product: Product;
  where: { market: string; locale: string };
  t: Dictionary;
  /**
   * A cached page must not keep a page without the section for the whole catalog version,
   * so there a failed read throws (and nothing is cached); a page rendered on request
   * simply shows no section.
   */
  required?: boolean;
  /** The page is not a kept product page, so the products' pages load in full (ShopLink). */
  fullLoads: boolean;
};

/** "More from <collection>": other products of the product's first collection, one list read (relatedRead). */
export async function RelatedProducts({ product, where, t, fullLoads, required = false }: Props) {
  const collection = product.collections[0];
  const read = relatedRead(product, where);
  if (!collection || !read) return null;
  const page = required ? await read : await read.catch(() => null);
  const others = (page?.data ?? []).filter((p) => p.handle !== product.handle).slice(0, RELATED_SHOWN);
  if (others.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-title">
      <h2 id="related-title">{fill(t.moreFrom, { collection: collection.title })}</h2>
      <ProductGrid products={others} locale={where.locale} t={t} fullLoads={fullLoads} heading="h3" />
    </section>
  );
}
