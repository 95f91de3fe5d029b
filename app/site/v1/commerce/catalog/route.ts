import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { listCatalog as listCatalogOperation } from '@/lib/contract/operations/reads';
import { CatalogPage } from '@/lib/contract/catalog';
import { listCatalog } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/catalog
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(listCatalogOperation, async ({ site, query }) => {
    const choice = await chooseMarket(db(), site, query);
    return ok(await listCatalog(db(), site, choice, query), { schema: CatalogPage, cache: 'catalog', contentLanguage: choice.locale });
  }),
});
