'use client';
import Link from 'next/link';
import { useLayoutEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useT } from './i18n-context';

/** react-query key of the cart's item count; cart actions put their new count here. */
export const CART_COUNT_QUERY = ['cart-count'] as const;

async function loadCount({ signal }: { signal: AbortSignal }): Promise<number> {
  const res = await fetch('/shop-api/cart-count', { cache: 'no-store', signal });
  if (!res.ok) throw new Error(`cart count ${res.status}`);
  return ((await res.json()) as { count: number }).count;
}

/**
 * The header's cart link with the number of items. A page rendered on request knows the
 * count (the cart is an HttpOnly cookie only the server reads); a cached page is shared by
 * every shopper, so it asks the shop's own endpoint after hydration (`count` null).
 */
export function CartLink({ count: known }: { count: number | null }) {
  const t = useT();
  const client = useQueryClient();
  const { data } = useQuery({ queryKey: CART_COUNT_QUERY, queryFn: loadCount, enabled: known === null });
  // A page rendered on request knows the count; an add made on it since (./use-cart-command.ts)
  // answers the newer one into the same query. Before paint, so an older count never shows.
  useLayoutEffect(() => {
    if (known !== null) client.setQueryData(CART_COUNT_QUERY, known);
  }, [client, known]);
  const count = data ?? known ?? undefined;
  // The accessible name is the visible text ("Cart 2"): a screen reader user and a voice
  // control user name the link by what they see.
  return (
    <Link className="cart-link" href="/cart">
      {t.cart}
      {count === undefined ? null : <>{' '}<span className="cart-count">{count}</span></>}
    </Link>
  );
}
