// The one home of next/link in the shop: every link says whether it crosses root layouts, and
// whether its target is worth prefetching.
// eslint-disable-next-line no-restricted-imports
import Link from 'next/link';
import type { ReactNode } from 'react';

type Props = {
  href: string;
  /**
   * The link crosses between the shop's two root layouts (a kept product page's, every other
   * page's): Next loads the target in full either way (docs/storefront.md).
   */
  fullLoad: boolean;
  /**
   * Prefetch the target while the link is in view: only for a kept product page, which is
   * prerendered, so its prefetch brings the page itself.
   */
  prefetch?: boolean;
  className?: string;
  rel?: string;
  'aria-current'?: 'page';
  children: ReactNode;
};

/**
 * A link to another page of the shop. Across root layouts a plain <a>: next/link would cost
 * every render its client component, and prefetch a payload the browser cannot use. Within
 * one, next/link (the click navigates in place), not prefetched unless asked: a page rendered
 * on request has no loading boundary and no prerender, so its prefetch brings only its route
 * tree and title, which spares the click nothing, and costs the server a request and the
 * page's metadata reads per link in view (scripts/bench/HISTORY.md, 2026-12-01).
 */
export function ShopLink({ fullLoad, prefetch = false, ...link }: Props) {
  return fullLoad ? <a {...link} /> : <Link {...link} prefetch={prefetch ? null : false} />;
}
