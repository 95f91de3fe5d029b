// The one home of next/link in the shop: each link says whether it crosses root layouts.
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
  className?: string;
  rel?: string;
  'aria-current'?: 'page';
  children: ReactNode;
};

/**
 * A link to another page of the shop. Across root layouts a plain <a>: next/link would cost
 * every render its client component, and prefetch a payload the browser cannot use. Within
 * one, next/link (the click navigates in place), never prefetched: no page of the shop has a
 * loading boundary or a prerender Next's router can take in advance, so a prefetch brings only
 * the route's tree (and a page rendered on request, its title), the click fetches the page all
 * the same, and each link in view cost the server a request (scripts/bench/HISTORY.md,
 * 2026-12-01).
 */
export function ShopLink({ fullLoad, ...link }: Props) {
  return fullLoad ? <a {...link} /> : <Link {...link} prefetch={false} />;
}
