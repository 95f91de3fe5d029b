import type { Metadata } from 'next';
import { fetchAvailabilityBatch } from '@/lib/site-client';
import { setLineQuantity, removeLine } from '../_actions/cart';
import { AvailabilityBadge } from '../_components/availability-badge';
import { CartBundles } from '../_components/cart-bundles';
import { QuantityStepper } from '../_components/quantity-stepper';
import { ShopLink } from '../_components/shop-link';
import { readCart, isCartEmpty, itemCount, type Cart } from '../_lib/cart';
import { bundleProduct, resolveVariants, variantsKey } from '../_lib/data';
import { formatMoney, sumMoney } from '../_lib/format';
import { fill, type Dictionary } from '../_lib/i18n';
import { shop } from '../_lib/shop';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${t.yourCart} | ${site.name}`, robots: { index: false } };
}

type Props = { searchParams: Promise<{ problem?: string; lines?: string }> };

export default async function CartPage({ searchParams }: Props) {
  const [{ t, locale }, cart, query] = await Promise.all([shop(), readCart(), searchParams]);
  if (isCartEmpty(cart)) {
    return (
      <div className="state">
        <h1>{t.yourCart}</h1>
        <p className="muted">{t.cartEmpty}</p>
        <ShopLink fullLoad={false} className="btn btn-primary" href="/products">
          {t.continueShopping}
        </ShopLink>
      </div>
    );
  }
  const problem = problemText(query.problem, t);
  const flagged = (typeof query.lines === 'string' ? query.lines : '').split(',').filter(Boolean);
  return (
    <>
      <div className="page-head">
        <h1>{t.yourCart}</h1>
      </div>
      {problem ? (
        <div className="notice notice-error mb-20" role="alert">
          <p>{problem}</p>
        </div>
      ) : null}
      <div className="two-col">
        {/* Not streamed behind a Suspense fallback: without JavaScript a fallback is never
            replaced, and the cart would show "Loading…" for good. Its reads take milliseconds. */}
        <CartLines cart={cart} flagged={flagged} t={t} locale={locale} />
        <aside className="panel summary" aria-labelledby="summary-title">
          <h2 id="summary-title">{t.orderSummary}</h2>
          <p>{itemCount(cart) === 1 ? t.itemCountOne : fill(t.itemCount, { count: itemCount(cart) })}</p>
          <CartSubtotal cart={cart} t={t} locale={locale} />
          <p className="muted">{t.totalsAtCheckout}</p>
          <form method="post" action="/shop-api/checkout">
            <button className="btn btn-primary btn-block" type="submit">
              {t.checkout}
            </button>
          </form>
          <p className="mt-12 mb-0">
            <ShopLink fullLoad={false} href="/products">
              {t.continueShopping}
            </ShopLink>
          </p>
        </aside>
      </div>
    </>
  );
}

/**
 * What the cart's lines and bundles come to at the catalog's current prices (the same reads
 * the lines make, shared per request). Lines the shop no longer sells are left out, as the
 * checkout leaves them out; shipping and tax are added at checkout.
 */
async function CartSubtotal({ cart, t, locale }: { cart: Cart; t: Dictionary; locale: string }) {
  const handles = [...new Set(cart.bundles.map((b) => b.productHandle))];
  const [resolved, products] = await Promise.all([
    resolveVariants(variantsKey(cart.lines.map((l) => l.variantId))).catch(() => null),
    Promise.all(handles.map(bundleProduct)),
  ]);
  if (!resolved) return null;
  const bundles = new Map(products.flatMap((p) => p?.bundles ?? []).map((b) => [b.id, b]));
  const priced = [
    ...cart.lines.flatMap((l) => {
      const found = resolved.get(l.variantId);
      return found ? [{ price: found.variant.price, quantity: l.quantity }] : [];
    }),
    ...cart.bundles.flatMap((b) => {
      const bundle = bundles.get(b.bundleId);
      return bundle ? [{ price: bundle.price, quantity: b.quantity }] : [];
    }),
  ];
  const total = sumMoney(priced);
  if (!total) return null;
  return (
    <p className="subtotal">
      <span>{t.subtotal}</span>
      <strong>{formatMoney(total, locale)}</strong>
    </p>
  );
}

/** The lines and bundles, named and priced from the catalog. */
async function CartLines({ cart, flagged: flaggedIds, t, locale }: { cart: Cart; flagged: string[]; t: Dictionary; locale: string }) {
  const ids = cart.lines.map((l) => l.variantId);
  const [resolved, availability] = await Promise.all([
    resolveVariants(variantsKey(ids)),
    ids.length ? fetchAvailabilityBatch(ids).catch(() => null) : null,
  ]);
  const live = new Map((availability?.data ?? []).map((a) => [a.variantId, a]));
  const flagged = new Set(flaggedIds);

  return (
    <ul className="cart-lines" aria-label={t.yourCart}>
      {cart.lines.map((line) => {
        const found = resolved.get(line.variantId);
        const status = live.get(line.variantId)?.status ?? found?.variant.availability;
        const soldOut = live.has(line.variantId) ? !live.get(line.variantId)!.purchasable : status === 'out_of_stock';
        const title = found ? `${found.product.title} — ${found.variant.title}` : line.variantId;
        // The picture of the variant in the cart (the Sand mug, not the first, white one).
        const image = found ? (found.variant.image ?? found.product.featuredImage) : null;
        return (
          <li className="cart-line" key={line.variantId}>
            {image ? (
              // eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser
              <img src={image.url} alt="" width={96} height={96} />
            ) : (
              <span />
            )}
            <div>
              <h2>
                {found ? (
                  <ShopLink href={`/products/${found.product.handle}?variant=${encodeURIComponent(line.variantId)}`} fullLoad>
                    {found.product.title}
                  </ShopLink>
                ) : (
                  t.lineUnavailable
                )}
              </h2>
              {found ? <p className="variant">{found.variant.title}</p> : null}
              {status ? (
                <p className="m-0 mb-10">
                  <AvailabilityBadge status={status} t={t} />
                </p>
              ) : null}
              {(soldOut || flagged.has(line.variantId)) && found ? (
                <p className="field-error" role="note">
                  {fill(t.lineSoldOut, { title })}
                </p>
              ) : null}
              <div className="line-actions">
                <QuantityStepper
                  action={setLineQuantity}
                  field={{ name: 'variantId', value: line.variantId }}
                  quantity={line.quantity}
                  title={title}
                  t={t}
                />
                <form action={removeLine}>
                  <input type="hidden" name="variantId" value={line.variantId} />
                  <button className="link-button" type="submit" aria-label={fill(t.removeItem, { title })}>
                    {t.remove}
                  </button>
                </form>
              </div>
            </div>
            <p className="price m-0">{found ? formatMoney(found.variant.price, locale) : '—'}</p>
          </li>
        );
      })}
      {cart.bundles.length ? <CartBundles bundles={cart.bundles} flagged={flagged} t={t} locale={locale} /> : null}
    </ul>
  );
}

function problemText(code: string | undefined, t: Dictionary): string | null {
  if (code === 'insufficient_stock') return t.cartSoldOutProblem;
  if (code === 'unknown_variant') return t.cartUnknownProblem;
  if (code === 'unavailable') return t.cartUnavailableProblem;
  return null;
}
