import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { getStorefront } from '@/lib/contract/operations/reads';
import { StorefrontSnapshot } from '@/lib/contract/catalog';
import { readStorefrontSnapshot } from '@/lib/commerce/catalog';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/storefront
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getStorefront, async ({ site, query }) => {
    const snapshot = await readStorefrontSnapshot(db(), site, query);
    return ok(snapshot, { schema: StorefrontSnapshot, cache: 'snapshot', contentLanguage: snapshot.locale });
  }),
});
