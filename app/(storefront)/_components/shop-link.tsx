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
  'aria-current'?: 'page';
  prefetch?: false;
  children: ReactNode;
};

/**
 * A link to another page of the shop. Across root layouts a plain <a>: next/link would cost
 * every render its client component, and prefetch a payload the browser cannot use.
 */
export function ShopLink({ fullLoad, prefetch, ...link }: Props) {
  return fullLoad ? <a {...link} /> : <Link {...link} prefetch={prefetch} />;
}
