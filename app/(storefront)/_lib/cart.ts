import 'server-only';
import { cookies } from 'next/headers';
import { isCartEmpty, parseCart, serializeCart, type Cart } from './cart-codec';
import { secureCookies } from './shop';

export * from './cart-codec';

export const CART_COOKIE = 'cart';

export async function readCart(): Promise<Cart> {
  return parseCart((await cookies()).get(CART_COOKIE)?.value);
}

/** Only from server actions and route handlers (the places a cookie can be set). */
export async function writeCart(cart: Cart): Promise<void> {
  const jar = await cookies();
  if (isCartEmpty(cart)) {
    jar.delete(CART_COOKIE);
    return;
  }
  jar.set(CART_COOKIE, serializeCart(cart), {
    httpOnly: true,
    sameSite: 'lax',
    secure: await secureCookies(),
    path: '/',
    maxAge: 30 * 86400,
  });
}
