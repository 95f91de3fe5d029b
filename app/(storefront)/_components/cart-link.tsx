'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CartActionState } from '../_actions/cart';
import { fill } from '../_lib/i18n';
import { useT } from './i18n-context';

/** react-query key of the cart's item count; cart actions put their new count here. */
export const CART_COUNT_QUERY = ['cart-count'] as const;

async function loadCount(): Promise<number> {
  const res = await fetch('/shop-api/cart-count', { cache: 'no-store' });
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
  const { data } = useQuery({ queryKey: CART_COUNT_QUERY, queryFn: loadCount, enabled: known === null });
  const count = known ?? data;
  const label = count === undefined ? t.cart : count === 1 ? t.cartWithOne : fill(t.cartWithCount, { count });
  return (
    <Link className="cart-link" href="/cart" aria-label={label}>
      <span aria-hidden="true">{t.cart}</span>
      {count === undefined ? null : <span className="cart-count" aria-hidden="true">{count}</span>}
    </Link>
  );
}

/** After a cart action added something, the header shows the count the action answered. */
export function useCartCountFrom(state: CartActionState) {
  const client = useQueryClient();
  useEffect(() => {
    if (state.status === 'added' && state.cartCount !== undefined) client.setQueryData(CART_COUNT_QUERY, state.cartCount);
  }, [client, state]);
}

const NOTICE_KEY = 'cart-notice';
const NOTICE_MS = 5_000;

/**
 * A cart action's answer that outlives a remount of its page. Setting the cart cookie makes
 * Next re-render the page, and on a cached product page a catalog change in the meantime
 * (stock moves all the time) is a new cache key, so the page mounts afresh and its
 * `useActionState` starts idle again. The answer is kept for a few seconds in
 * sessionStorage, per form (`scope`), and shown by the fresh mount.
 */
export function useLastingCartAnswer(state: CartActionState, scope: string): CartActionState {
  const [kept, setKept] = useState<CartActionState | null>(null);
  useEffect(() => {
    if (state.status !== 'idle') sessionStorage.setItem(NOTICE_KEY, JSON.stringify({ scope, state }));
  }, [scope, state]);
  useEffect(() => {
    const raw = sessionStorage.getItem(NOTICE_KEY);
    if (!raw) return;
    sessionStorage.removeItem(NOTICE_KEY);
    try {
      const stored = JSON.parse(raw) as { scope: string; state: CartActionState };
      // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only after mount
      if (stored.scope === scope && Date.now() - (stored.state.at ?? 0) < NOTICE_MS) setKept(stored.state);
    } catch {
      // not ours, or from another version of the page: nothing to show
    }
  }, [scope]);
  return state.status === 'idle' && kept ? kept : state;
}
