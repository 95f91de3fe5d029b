'use client';
import type { BundleStrings } from '../_lib/i18n/islands';
import { ShopLink } from './shop-link';
import { useCartCommand } from './use-cart-command';

const ADD_BUNDLE = '/shop-api/cart/bundles';

export type BundleView = { id: string; title: string; price: string; items: { label: string; href: string | null; quantity: number }[] };

/** `fullLoads` as ProductView's: from a kept page the cart loads in full, the items' product pages do not. */
export function BundleOffer({
  productHandle,
  bundle,
  t,
  fullLoads,
}: {
  productHandle: string;
  bundle: BundleView;
  t: BundleStrings;
  fullLoads: boolean;
}) {
  const { state, onSubmit, pending } = useCartCommand(ADD_BUNDLE, t.tryAgainLater);
  return (
    <li className="panel">
      <h3>
        {bundle.title} · <span className="price">{bundle.price}</span>
      </h3>
      <p className="muted m-0">{t.bundleIncludes}:</p>
      <ul>
        {bundle.items.map((item, i) => (
          <li key={i}>
            {item.quantity} ×{' '}
            {item.href ? (
              <ShopLink href={item.href} fullLoad={!fullLoads}>
                {item.label}
              </ShopLink>
            ) : (
              item.label
            )}
          </li>
        ))}
      </ul>
      <form action={ADD_BUNDLE} method="post" onSubmit={onSubmit}>
        <input type="hidden" name="productHandle" value={productHandle} />
        <input type="hidden" name="bundleId" value={bundle.id} />
        <button className="btn btn-secondary btn-small" type="submit" disabled={pending}>
          {pending ? t.adding : t.addBundle}
        </button>
      </form>
      <div aria-live="polite">
        {state.status !== 'idle' && !pending ? (
          <p key={state.at} className={`notice ${state.status === 'added' ? 'notice-success' : 'notice-error'} mt-10`}>
            {state.message}{' '}
            {state.status === 'added' ? (
              <ShopLink href="/cart" fullLoad={fullLoads}>
                {t.viewCart}
              </ShopLink>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  );
}
