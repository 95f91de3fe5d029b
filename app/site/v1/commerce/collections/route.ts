import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { listCollections as listCollectionsOperation } from '@/lib/contract/operations/reads';
import { CollectionPage } from '@/lib/contract/catalog';
import { listCollections } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/collections
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(listCollectionsOperation, async ({ site, query }) => {
    const choice = await chooseMarket(db(), site, query);
    return ok(await listCollections(db(), site, choice, query), {
      schema: CollectionPage,
      cache: 'catalog',
      contentLanguage: choice.locale,
    });
  }),
});
