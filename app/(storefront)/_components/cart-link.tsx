'use client';
import Link from 'next/link';
import { useCartCount } from './cart-count';

/**
 * The header's cart link with the number of items. A page rendered on request knows the
 * count (the cart is an HttpOnly cookie only the server reads); a cached page is shared by
 * every shopper, so it asks the shop's own endpoint after hydration (`count` null).
 */
export function CartLink({ count: known, label }: { count: number | null; label: string }) {
  const count = useCartCount(known);
  // The accessible name is the visible text ("Cart 2"): a screen reader user and a voice
  // control user name the link by what they see.
  return (
    <Link className="cart-link" href="/cart">
      {label}
      {count === null ? null : (
        <>
          {' '}
          <span className="cart-count">{count}</span>
        </>
      )}
    </Link>
  );
}
