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
