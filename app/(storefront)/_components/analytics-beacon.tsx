'use client';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';

type ViewEvent =
  | { type: 'page_view' }
  | { type: 'product_view'; productHandle: string; variantId?: string }
  | { type: 'collection_view'; collectionHandle: string };

/**
 * Tells the shop's own server that a page was viewed; the server adds the anonymous id
 * (an HttpOnly cookie) and forwards to the analytics operation. Fire-and-forget: a
 * failure here never affects the page.
 */
export function sendView(event: ViewEvent, path: string) {
  const body = JSON.stringify({ ...event, path });
  try {
    void fetch('/shop-api/events', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true }).catch(() => {});
  } catch {
    // analytics never breaks the page
  }
}

/** A page_view for every client-side navigation (mounted once, in the shop layout). */
export function PageViewBeacon() {
  const pathname = usePathname();
  useEffect(() => {
    sendView({ type: 'page_view' }, pathname);
  }, [pathname]);
  return null;
}

/** A product_view or collection_view, mounted by the page it describes. */
export function ViewBeacon({ event }: { event: Exclude<ViewEvent, { type: 'page_view' }> }) {
  const pathname = usePathname();
  const key = JSON.stringify(event);
  useEffect(() => {
    sendView(JSON.parse(key) as ViewEvent, pathname);
  }, [key, pathname]);
  return null;
}
