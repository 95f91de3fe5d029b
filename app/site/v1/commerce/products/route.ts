import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { listProducts as listProductsOperation } from '@/lib/contract/operations/reads';
import { ProductListPage } from '@/lib/contract/catalog';
import { listProducts } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { db } from '@/lib/db';
import { inShopperTurn } from '@/lib/platform/rate-limit/turns';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/products
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(listProductsOperation, async ({ site, query, buyerIp }) => {
    const choice = await chooseMarket(db(), site, query);
    return ok(await inShopperTurn(buyerIp, () => listProducts(db(), site, choice, query)), {
      schema: ProductListPage,
      cache: 'catalog',
      contentLanguage: choice.locale,
    });
  }),
});
