import { ShopPage, shopPageMetadata } from '../_components/shop-page';

export const dynamic = 'force-dynamic';

export function generateMetadata() {
  return shopPageMetadata('contact');
}

// GET /contact
export default function ContactPage() {
  return <ShopPage page="contact" />;
}
