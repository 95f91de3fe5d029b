import { crossSite, json, sameOrigin } from '../../_lib/shop-endpoints';
import { itemCount, readCart } from '../../_lib/cart';

// GET /shop-api/cart-count — the header of a cached page asks how many items the cart holds.
export async function GET(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return crossSite();
  return json({ count: itemCount(await readCart()) });
}
