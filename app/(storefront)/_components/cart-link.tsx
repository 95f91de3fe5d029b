'use client';
import { useCartCount } from './cart-count';
import { ShopLink } from './shop-link';

/**
 * The header's cart link with the number of items. A page rendered on request knows the
 * count (the cart is an HttpOnly cookie only the server reads); a cached page is shared by
 * every shopper, so it asks the shop's own endpoint after hydration (`count` null).
 */
export function CartLink({ count: known, label, fullLoad }: { count: number | null; label: string; fullLoad: boolean }) {
  const count = useCartCount(known);
  // The accessible name is the visible text ("Cart 2"): a screen reader user and a voice
  // control user name the link by what they see.
  return (
    <ShopLink className="cart-link" href="/cart" fullLoad={fullLoad}>
      {label}
      {count === null ? null : (
        <>
          {' '}
          <span className="cart-count">{count}</span>
        </>
      )}
    </ShopLink>
  );
}
