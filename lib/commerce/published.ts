import { and, eq, type Placeholder } from 'drizzle-orm';
import { products } from '@/db/schema';

/**
 * The one published rule: only published products (and so their variants, bundles and
 * collection memberships) exist for the API. Every read that reaches a product uses this.
 */
export function isPublished(siteId: string | Placeholder) {
  return and(eq(products.siteId, siteId), eq(products.status, 'published'));
}
