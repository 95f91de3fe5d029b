'use client';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';

type ViewEvent =
  | { type: 'page_view' }
  | { type: 'product_view'; productHandle: string; variantId?: string }
  | { type: 'collection_view'; collectionHandle: string };

let queue: (ViewEvent & { path: string })[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

/**
 * Tells the shop's own server that a page was viewed; the server adds the anonymous id
 * (an HttpOnly cookie) and forwards to the analytics operation. Views of one navigation
 * go in one request, so a first visit gets one id for all of them. Fire-and-forget: a
 * failure here never affects the page.
 */
export function sendView(event: ViewEvent, path: string) {
  queue.push({ ...event, path });
  timer ??= setTimeout(() => {
    const events = queue.slice(0, 10);
    queue = [];
    timer = null;
    try {
      void fetch('/shop-api/events', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ events }),
        keepalive: true,
      }).catch(() => {});
    } catch {
      // analytics never breaks the page
    }
  }, 50);
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
