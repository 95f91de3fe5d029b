'use client';
import ShopError from '@/app/(storefront)/error';

/**
 * The page or its chrome could not be rendered (the API failed while the page was being
 * made): the shop's error message. Next keeps no copy of a page that failed, so the next
 * request (or "Try again") renders it anew.
 */
export default function CachedShopError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" className="container">
      <ShopError {...props} />
    </main>
  );
}
