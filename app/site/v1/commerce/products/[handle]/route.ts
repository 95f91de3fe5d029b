import { endpoint, route } from '@/lib/api/route';
import { okKept } from '@/lib/api/reply';
import { getProduct } from '@/lib/contract/operations/reads';
import { Product } from '@/lib/contract/catalog';
import { getPublishedProduct, productKept } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/products/{handle}
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getProduct, async ({ site, params, query }) => {
    const choice = await chooseMarket(db(), site, query);
    return okKept(await productKept(db(), site, params.handle, choice), () => getPublishedProduct(db(), site, params.handle, choice), {
      schema: Product,
      cache: 'catalog',
      contentLanguage: choice.locale,
    });
  }),
});
