import { ShopNotFound } from '@/app/(storefront)/_components/shop-not-found';

/** An unknown, draft or archived product: the shop's 404 (cached for this catalog version like any page). */
export default function NotFound() {
  return <ShopNotFound />;
}
