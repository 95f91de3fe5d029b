import type { MetadataRoute } from 'next';
import { fetchCollections, fetchProducts } from '@/lib/site-client';
import { requestOrigin } from './(storefront)/_lib/shop';

// Rendered on request from the live catalog (never at build time, when no API runs).
export const dynamic = 'force-dynamic';

async function all<T>(read: (cursor?: string) => Promise<{ data: T[]; page: { nextCursor: string | null } }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await read(cursor);
    out.push(...page.data);
    if (!page.page.nextCursor) break;
    cursor = page.page.nextCursor;
  }
  return out;
}

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const origin = await requestOrigin();
  const [products, collections] = await Promise.all([
    all((cursor) => fetchProducts({ limit: 100, cursor })),
    all((cursor) => fetchCollections({ limit: 100, cursor })),
  ]);
  return [
    { url: `${origin}/`, changeFrequency: 'daily', priority: 1 },
    { url: `${origin}/products`, changeFrequency: 'daily', priority: 0.8 },
    ...collections.map((c) => ({ url: `${origin}/collections/${c.handle}`, changeFrequency: 'weekly' as const, priority: 0.7 })),
    ...products.map((p) => ({
      url: `${origin}/products/${p.handle}`,
      lastModified: p.updatedAt,
      changeFrequency: 'weekly' as const,
      priority: 0.6,
      images: p.featuredImage ? [new URL(p.featuredImage.url, origin).toString()] : undefined,
    })),
  ];
}
