import type { AvailabilityStatus } from '@/lib/contract/common';
import type { Product } from '@/lib/contract/catalog';

const SCHEMA_AVAILABILITY: Record<AvailabilityStatus, string> = {
  in_stock: 'https://schema.org/InStock',
  low_stock: 'https://schema.org/LimitedAvailability',
  out_of_stock: 'https://schema.org/OutOfStock',
  preorder: 'https://schema.org/PreOrder',
};

/** schema.org Product with one Offer per variant, prices as the API's decimal strings. */
export function productJsonLd(product: Product, origin: string, variantId?: string) {
  const url = `${origin}/products/${product.handle}`;
  const main = product.variants.find((v) => v.id === variantId) ?? product.variants[0];
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: product.seo.description || product.description,
    image: product.images.map((i) => new URL(i.url, origin).toString()),
    sku: main?.sku,
    url,
    offers: product.variants.map((v) => ({
      '@type': 'Offer',
      sku: v.sku,
      name: v.title,
      url: `${url}?variant=${encodeURIComponent(v.id)}`,
      price: v.price.amount,
      priceCurrency: v.price.currency,
      availability: SCHEMA_AVAILABILITY[v.availability],
      itemCondition: 'https://schema.org/NewCondition',
    })),
  };
}
