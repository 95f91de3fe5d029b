import { ShopNotFound } from './_components/shop-not-found';

export default function NotFound() {
  return <ShopNotFound />;
}
