import { createHash } from 'node:crypto';
import { SiteApiError, startCheckout } from '@/lib/site-client';
import { logger } from '@/lib/platform/observability/logger';
import { track } from '../../_lib/analytics';
import { crossSite, sameOrigin, seeOther } from '../../_lib/shop-endpoints';
import { isCartEmpty, itemCount, newNonce, readCart, recentCheckout, rememberCheckout, writeCart, type Cart } from '../../_lib/cart';
import { buyerIp, locality } from '../../_lib/shop';

/**
 * POST /shop-api/checkout — the cart's "Checkout" button (a plain form post, so it works
 * without JavaScript). The Idempotency-Key is derived from the cart's nonce and content:
 * a double click sends the same key twice and the API makes one session; both answers
 * redirect to it. A second submit sent after the first one's answer (a slower double
 * click, a fast server) carries the cart's new nonce, and is sent to the session the first
 * one started (`recentCheckout`).
 */
export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return crossSite();
  const cart = await readCart();
  if (isCartEmpty(cart)) return seeOther('/cart');
  const where = await locality();
  const content = cartContent(cart, where);
  const recent = await recentCheckout(content);
  if (recent) return seeOther(`/checkout/${encodeURIComponent(recent)}`);

  try {
    const { session } = await startCheckout(
      {
        lines: cart.lines.map(({ variantId, quantity }) => ({ variantId, quantity })),
        ...(cart.bundles.length ? { bundles: cart.bundles.map(({ bundleId, quantity }) => ({ bundleId, quantity })) } : {}),
        market: where.market,
        locale: where.locale,
      },
      { idempotencyKey: `checkout-${digest(`${cart.nonce}|${content}`)}`, buyerIp: await buyerIp() },
    );
    // A fresh nonce: checking out this same cart again later starts a new session (a second
    // submit of a double click that leaves after this answer finds the session remembered).
    await writeCart({ ...cart, nonce: newNonce() });
    await rememberCheckout(session.id, content);
    await track([{ type: 'begin_checkout', path: '/cart', quantity: Math.min(999, itemCount(cart)), value: session.totals.total }]);
    return seeOther(`/checkout/${encodeURIComponent(session.id)}`);
  } catch (error) {
    if (error instanceof SiteApiError && (error.code === 'insufficient_stock' || error.code === 'unknown_variant')) {
      const ids = linesIn(error, cart);
      return seeOther(`/cart?problem=${error.code}${ids.length ? `&lines=${ids.map(encodeURIComponent).join(',')}` : ''}`);
    }
    logger().warn(
      { error: error instanceof SiteApiError ? error.code : error instanceof Error ? error.name : 'error' },
      'storefront: checkout not started',
    );
    return seeOther('/cart?problem=unavailable');
  }
}

/** What the cart holds, where: with its nonce, the checkout's Idempotency-Key. */
function cartContent(cart: Cart, where: { market: string; locale: string }): string {
  const content = [
    ...cart.lines.map((l) => `${l.variantId}:${l.quantity}`),
    ...cart.bundles.map((b) => `bundle:${b.bundleId}:${b.quantity}`),
  ].join(',');
  return digest(`${where.market}|${where.locale}|${content}`);
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The variant and bundle ids the problem's pointers (`/lines/<i>/…`, `/bundles/<i>/…`) name. */
function linesIn(error: SiteApiError, cart: Cart): string[] {
  const ids = new Set<string>();
  for (const { pointer } of error.errors) {
    const [, field, index] = /^\/(lines|bundles)\/(\d+)/.exec(pointer) ?? [];
    if (field === 'lines') ids.add(cart.lines[Number(index)]?.variantId ?? '');
    if (field === 'bundles') ids.add(cart.bundles[Number(index)]?.bundleId ?? '');
  }
  ids.delete('');
  return [...ids];
}
