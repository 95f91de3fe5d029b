import 'server-only';
import { crossSite, json, readForm, sameOrigin, seeOther, wantsJson } from './shop-endpoints';
import type { CartCommandResult } from './cart-commands';

/**
 * A POST endpoint for an "add to the cart" form, instead of a server action: setting a
 * cookie in a server action makes Next re-render the page, and a cached product page whose
 * catalog version moved meanwhile is then mounted afresh (its key changed) and the
 * shopper's confirmation is lost. A fetch changes nothing on the page but what it shows.
 *
 * The pages' scripts send the form and get the result as JSON (200 added, 422 refused).
 * Without JavaScript the browser posts the form itself: 303 to the cart when added, else
 * back to the product. Other sites are refused (403), as at every shop endpoint; a body
 * that is not a small form, 400 or 413.
 */
export function cartCommandRoute(run: (form: URLSearchParams) => Promise<CartCommandResult>) {
  return async function POST(req: Request): Promise<Response> {
    if (!sameOrigin(req)) return crossSite();
    const form = await readForm(req);
    if (form instanceof Response) return form;
    const result = await run(form);
    if (wantsJson(req)) return json(result, result.status === 'added' ? 200 : 422);
    if (result.status === 'added' || !result.productHandle) return seeOther('/cart');
    return seeOther(`/products/${result.productHandle}`);
  };
}
