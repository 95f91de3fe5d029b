import Link from 'next/link';
import { shop } from './_lib/shop';

export default async function ShopNotFound() {
  const { t } = await shop();
  return (
    <div className="state">
      <h1>{t.notFoundTitle}</h1>
      <p className="muted">{t.notFoundText}</p>
      <Link className="btn btn-primary" href="/products">{t.allProducts}</Link>
    </div>
  );
}
