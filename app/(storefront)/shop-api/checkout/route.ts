import { createHash } from 'node:crypto';
import { SiteApiError, startCheckout } from '@/lib/site-client';
import { track } from '../../_lib/analytics';
import { sameOrigin } from '../../_lib/bff';
import { newNonce, readCart, writeCart, type Cart } from '../../_lib/cart';
import { buyerIp, locality } from '../../_lib/shop';

/**
 * POST /shop-api/checkout — the cart's "Checkout" button (a plain form post, so it works
 * without JavaScript). The Idempotency-Key is derived from the cart's nonce and content:
 * a double click sends the same key twice and the API makes one session; both answers
 * redirect to it.
 */
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return new Response(null, { status: 403 });
  const cart = await readCart();
  if (cart.lines.length === 0) return seeOther('/cart');
  const where = await locality();

  try {
    const { session } = await startCheckout(
      { lines: cart.lines, market: where.market, locale: where.locale },
      { idempotencyKey: checkoutKey(cart, where), buyerIp: await buyerIp() },
    );
    // A fresh nonce: checking out this same cart again later starts a new session.
    await writeCart({ ...cart, nonce: newNonce() });
    await track([{ type: 'begin_checkout', path: '/cart', quantity: Math.min(999, cart.lines.reduce((n, l) => n + l.quantity, 0)), value: session.totals.total }]);
    return seeOther(`/checkout/${encodeURIComponent(session.id)}`);
  } catch (error) {
    if (error instanceof SiteApiError && (error.code === 'insufficient_stock' || error.code === 'unknown_variant')) {
      const ids = linesIn(error, cart);
      return seeOther(`/cart?problem=${error.code}${ids.length ? `&lines=${ids.map(encodeURIComponent).join(',')}` : ''}`);
    }
    console.warn(`[storefront] checkout not started: ${error instanceof SiteApiError ? error.code : error instanceof Error ? error.name : 'error'}`);
    return seeOther('/cart?problem=unavailable');
  }
}

function checkoutKey(cart: Cart, where: { market: string; locale: string }): string {
  const content = cart.lines.map((l) => `${l.variantId}:${l.quantity}`).join(',');
  return `checkout-${createHash('sha256').update(`${cart.nonce}|${where.market}|${where.locale}|${content}`).digest('base64url')}`;
}

/** The variant ids the problem's pointers (`/lines/<i>/…`) name. */
function linesIn(error: SiteApiError, cart: Cart): string[] {
  const ids = new Set<string>();
  for (const { pointer } of error.errors) {
    const index = /^\/lines\/(\d+)/.exec(pointer)?.[1];
    const line = index === undefined ? undefined : cart.lines[Number(index)];
    if (line) ids.add(line.variantId);
  }
  return [...ids];
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}
