import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { getCollection as getCollectionOperation } from '@/lib/contract/operations/reads';
import { Collection } from '@/lib/contract/catalog';
import { getCollection } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/collections/{handle}
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getCollectionOperation, async ({ site, params, query }) => {
    const choice = await chooseMarket(db(), site, query);
    const collection = await getCollection(db(), site, params.handle, choice, query);
    return ok(collection, { schema: Collection, cache: 'catalog', contentLanguage: choice.locale });
  }),
});
