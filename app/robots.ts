import type { MetadataRoute } from 'next';
import { requestOrigin } from './(storefront)/_lib/shop';

export const dynamic = 'force-dynamic';

/** Catalog pages are for crawlers; cart, checkout, the shop's own endpoints and the API are not. */
export default async function robots(): Promise<MetadataRoute.Robots> {
  const origin = await requestOrigin();
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: ['/cart', '/checkout/', '/shop-api/', '/site/'] }],
    sitemap: `${origin}/sitemap.xml`,
  };
}
