import 'server-only';
import { cookies } from 'next/headers';
import { isCartEmpty, parseCart, serializeCart, type Cart } from './cart-codec';
import { secureCookies } from './shop';

export * from './cart-codec';

export const CART_COOKIE = 'cart';

export async function readCart(): Promise<Cart> {
  return parseCart((await cookies()).get(CART_COOKIE)?.value);
}

/**
 * Only from server actions and route handlers (the places a cookie can be set). Answers the
 * cart as the cookie now holds it (past the limits, lines are not kept).
 */
export async function writeCart(cart: Cart): Promise<Cart> {
  const jar = await cookies();
  if (isCartEmpty(cart)) {
    jar.delete(CART_COOKIE);
    return cart;
  }
  const value = serializeCart(cart);
  jar.set(CART_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: await secureCookies(),
    path: '/',
    maxAge: 30 * 86400,
  });
  return parseCart(value);
}

/**
 * The session a checkout of this cart just started, for a few seconds: a double click whose
 * second submit leaves after the first one's answer (which gave the cart a new nonce, so a
 * new Idempotency-Key) lands on the same session instead of starting another.
 */
const RECENT_CHECKOUT_COOKIE = 'checkout_recent';
const RECENT_CHECKOUT_SECONDS = 30;
const SESSION_ID = /^cs_[A-Za-z0-9]+$/;

/** The session started for a cart of this `content` (its lines, market and locale digested) in the last few seconds, if any. */
export async function recentCheckout(content: string): Promise<string | undefined> {
  const [sessionId, digest] = ((await cookies()).get(RECENT_CHECKOUT_COOKIE)?.value ?? '').split('.');
  return sessionId && SESSION_ID.test(sessionId) && digest === content ? sessionId : undefined;
}

export async function rememberCheckout(sessionId: string, content: string): Promise<void> {
  (await cookies()).set(RECENT_CHECKOUT_COOKIE, `${sessionId}.${content}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure: await secureCookies(),
    path: '/',
    maxAge: RECENT_CHECKOUT_SECONDS,
  });
}
