import { ShopLink } from './shop-link';
import type { Product } from '@/lib/contract/catalog';
import { fetchAvailabilityBatch } from '@/lib/site-client';
import { removeBundle, setBundleQuantity } from '../_actions/cart';
import type { CartBundle } from '../_lib/cart';
import { bundleProduct, resolveVariants, variantsKey, type ResolvedVariant } from '../_lib/data';
import { formatMoney } from '../_lib/format';
import { QuantityStepper } from './quantity-stepper';
import { fill, type Dictionary } from '../_lib/i18n';

/**
 * The cart's bundles: title, items and the bundle's unit price, all read from the product
 * (the cookie holds only ids, a handle and quantities). A bundle the product no longer
 * offers in this market is shown as unavailable, to be removed.
 */
export async function CartBundles({
  bundles,
  flagged,
  t,
  locale,
}: {
  bundles: CartBundle[];
  flagged: Set<string>;
  t: Dictionary;
  locale: string;
}) {
  const handles = [...new Set(bundles.map((b) => b.productHandle))];
  const products = new Map<string, Product | null>(await Promise.all(handles.map(async (h) => [h, await bundleProduct(h)] as const)));
  const offered = new Map(bundles.map((b) => [b.bundleId, products.get(b.productHandle)?.bundles.find((x) => x.id === b.bundleId)]));
  const present = [...offered.values()].filter((b) => b !== undefined);
  const itemIds = [...new Set(present.flatMap((b) => b.items.map((i) => i.variantId)))];
  const [names, availability] = await Promise.all([
    // One catalog read names every item (the same read the lines use, when the sets agree).
    resolveVariants(variantsKey(itemIds)).catch(() => new Map<string, ResolvedVariant>()),
    itemIds.length ? fetchAvailabilityBatch(itemIds).catch(() => null) : null,
  ]);
  const soldOut = new Set((availability?.data ?? []).filter((a) => !a.purchasable).map((a) => a.variantId));

  return (
    <>
      {bundles.map((entry) => {
        const bundle = offered.get(entry.bundleId);
        const title = bundle?.title ?? t.lineUnavailable;
        const short = bundle ? bundle.items.some((i) => soldOut.has(i.variantId)) || flagged.has(entry.bundleId) : false;
        return (
          <li className="cart-line" key={entry.bundleId}>
            <span />
            <div>
              <h2>
                {bundle ? (
                  <ShopLink href={`/products/${entry.productHandle}`} fullLoad>
                    {bundle.title}
                  </ShopLink>
                ) : (
                  t.lineUnavailable
                )}
              </h2>
              {bundle ? (
                <>
                  <p className="variant">{t.bundleIncludes}:</p>
                  <ul className="bundle-items">
                    {bundle.items.map((item) => {
                      const name = names.get(item.variantId);
                      return (
                        <li key={item.variantId}>
                          {item.quantity} × {name ? `${name.product.title} — ${name.variant.title}` : item.variantId}
                        </li>
                      );
                    })}
                  </ul>
                </>
              ) : (
                <p className="field-error" role="note">
                  {t.bundleUnavailable}
                </p>
              )}
              {short ? (
                <p className="field-error" role="note">
                  {fill(t.bundleSoldOutInCart, { title })}
                </p>
              ) : null}
              <div className="line-actions">
                {bundle ? (
                  <QuantityStepper
                    action={setBundleQuantity}
                    field={{ name: 'bundleId', value: entry.bundleId }}
                    quantity={entry.quantity}
                    title={title}
                    t={t}
                  />
                ) : null}
                <form action={removeBundle}>
                  <input type="hidden" name="bundleId" value={entry.bundleId} />
                  <button className="link-button" type="submit" aria-label={fill(t.removeItem, { title })}>
                    {t.remove}
                  </button>
                </form>
              </div>
            </div>
            <p className="price m-0">{bundle ? formatMoney(bundle.price, locale) : '—'}</p>
          </li>
        );
      })}
    </>
  );
}
