import { ShopPage, shopPageMetadata } from '../_components/shop-page';

export const dynamic = 'force-dynamic';

export function generateMetadata() {
  return shopPageMetadata('returns');
}

// GET /returns
export default function ReturnsPage() {
  return <ShopPage page="returns" />;
}
