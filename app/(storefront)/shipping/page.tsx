import { ShopPage, shopPageMetadata } from '../_components/shop-page';

export const dynamic = 'force-dynamic';

export function generateMetadata() {
  return shopPageMetadata('shipping');
}

// GET /shipping
export default function ShippingPage() {
  return <ShopPage page="shipping" />;
}
