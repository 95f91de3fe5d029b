'use client';
import { useChromeStrings } from './i18n-context';
import { ShopLink } from './shop-link';

/**
 * The shop's 404 in the shopper's language (from the layout's dictionary, so a cached page can
 * show it too). `fullLoad`: shown under a root layout other than the list's (ShopLink).
 */
export function ShopNotFound({ fullLoad }: { fullLoad: boolean }) {
  const t = useChromeStrings();
  return (
    <div className="state">
      <h1>{t.notFoundTitle}</h1>
      <p className="muted">{t.notFoundText}</p>
      <ShopLink className="btn btn-primary" href="/products" fullLoad={fullLoad}>
        {t.allProducts}
      </ShopLink>
    </div>
  );
}
