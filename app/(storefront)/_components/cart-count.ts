'use client';
import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * The header's cart count, shared by the cart link and the add-to-cart forms of the same
 * page (they are separate islands). A module-level store: islands of one document share the
 * module, and it costs no provider around the page.
 */
let count: number | null = null;
/** Bumped by every write, so an answer asked for before a newer write is dropped. */
let version = 0;
const listeners = new Set<() => void>();

function write(next: number) {
  count = next;
  version += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The count a cart command answered: newer than anything the page knew or asked for. */
export function setCartCount(next: number) {
  write(next);
}

/**
 * Asks the shop's own endpoint (the cart is an HttpOnly cookie only the server reads). A
 * count asked for before an add may arrive after the add's own, newer count on a busy
 * server; it is dropped then.
 */
async function refresh(signal: AbortSignal) {
  const asked = version;
  try {
    const res = await fetch('/shop-api/cart-count', { cache: 'no-store', signal });
    if (!res.ok) return;
    const { count: answered } = (await res.json()) as { count: number };
    if (version === asked) write(answered);
  } catch {
    // No count is shown until one arrives; the link works without it.
  }
}

/**
 * The count to show. A page rendered on request knows it (`known`); a cached page is shared
 * by every shopper, so it asks once it has hydrated, and again when the tab comes back into
 * view (the shopper may have added something in another tab).
 */
export function useCartCount(known: number | null): number | null {
  const current = useSyncExternalStore(
    subscribe,
    () => count,
    () => null,
  );
  // A page rendered on request (or a client-side navigation to one) brings the server's
  // count, newer than any the store holds. Before paint, so an older count never shows.
  useLayoutEffect(() => {
    if (known !== null) write(known);
  }, [known]);
  useEffect(() => {
    if (known !== null) return;
    const controller = new AbortController();
    void refresh(controller.signal);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh(controller.signal);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [known]);
  return current ?? known;
}
