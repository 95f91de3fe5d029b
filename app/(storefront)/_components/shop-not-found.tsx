'use client';
import Link from 'next/link';
import { useChromeStrings } from './i18n-context';

/** The shop's 404 in the shopper's language (from the layout's dictionary, so a cached page can show it too). */
export function ShopNotFound() {
  const t = useChromeStrings();
  return (
    <div className="state">
      <h1>{t.notFoundTitle}</h1>
      <p className="muted">{t.notFoundText}</p>
      <Link className="btn btn-primary" href="/products">
        {t.allProducts}
      </Link>
    </div>
  );
}
