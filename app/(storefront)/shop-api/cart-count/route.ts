import { json, sameOrigin } from '../../_lib/bff';
import { itemCount, readCart } from '../../_lib/cart';

// GET /shop-api/cart-count — the header of a cached page asks how many items the cart holds.
export async function GET(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return new Response(null, { status: 403 });
  return json({ count: itemCount(await readCart()) });
}
