'use client';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, type ReactNode } from 'react';
import type { AvailabilityBatch } from '@/lib/contract/catalog';
import type { AvailabilityStatus } from '@/lib/contract/common';
import { signUpForRestock } from '../_actions/signups';
import { fill } from '../_lib/i18n';
import type { PurchaseStrings } from '../_lib/i18n/islands';
import { availabilityLabel } from './availability-badge';
import { SignupForm } from './signup-form';
import { useSelection } from './product-selection';
import { useCartCommand } from './use-cart-command';
import { QueryIsland } from './query-island';
import { ShopLink } from './shop-link';

export type VariantView = {
  id: string;
  title: string;
  sku: string;
  options: Record<string, string>;
  price: string;
  compareAtPrice: string | null;
  availability: AvailabilityStatus;
};

/** What the page needs of an availability batch (the shop's endpoint answers the API's). */
export type AvailabilityView = Pick<AvailabilityBatch, 'data' | 'asOf'>;

type Props = {
  productHandle: string;
  options: { name: string; values: string[] }[];
  variants: VariantView[];
  initialAvailability: AvailabilityView | null;
  /** Under the price: what it includes (rendered on the server, product-view.tsx). */
  priceNote?: ReactNode;
  t: PurchaseStrings;
  /** As ProductView's: the cart loads in full from a kept page (ShopLink). */
  fullLoads: boolean;
};

const REFRESH_MS = 30_000;
const ADD_ITEM = '/shop-api/cart/items';

async function loadAvailability(ids: string[]): Promise<AvailabilityView> {
  const res = await fetch(`/shop-api/availability?variantIds=${ids.map(encodeURIComponent).join(',')}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`availability ${res.status}`);
  return (await res.json()) as AvailabilityView;
}

/**
 * Option picker, price, availability, add to cart and the back-in-stock form. Picking a
 * variant changes price and availability in place (no reload); availability is refreshed
 * from the shop's own endpoint while the page is open. That refresh (polling, on focus,
 * with the server's answer as initial data) is what React Query does here, so its client
 * lives in this island, not around the page.
 */
export function ProductPurchase(props: Props) {
  return (
    <QueryIsland>
      <Purchase {...props} />
    </QueryIsland>
  );
}

function Purchase({ productHandle, options, variants, initialAvailability, priceNote, t, fullLoads }: Props) {
  const id = useId();
  const { options: selection, setOptions: setSelection } = useSelection();
  const ids = useMemo(() => variants.map((v) => v.id), [variants]);
  const { data: live } = useQuery({
    queryKey: ['availability', productHandle, ids],
    queryFn: () => loadAvailability(ids),
    initialData: initialAvailability ?? undefined,
    initialDataUpdatedAt: initialAvailability ? Date.parse(initialAvailability.asOf) : undefined,
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  const byId = useMemo(() => new Map((live?.data ?? []).map((a) => [a.variantId, a])), [live]);
  const { state: cartState, onSubmit: addToCart, pending: adding } = useCartCommand(ADD_ITEM, t.tryAgainLater);

  const matches = (v: VariantView, wanted: Record<string, string>) => options.every((o) => v.options[o.name] === wanted[o.name]);
  const variant = variants.find((v) => matches(v, selection)) ?? null;
  const statusOf = (v: VariantView) => byId.get(v.id)?.status ?? v.availability;
  const status = variant ? statusOf(variant) : 'out_of_stock';
  const current = variant ? byId.get(variant.id) : undefined;
  const purchasable = variant ? (current?.purchasable ?? status !== 'out_of_stock') : false;
  const canSubscribe = variant ? (current?.canSubscribe ?? status === 'out_of_stock') : false;

  function choose(name: string, value: string) {
    const wanted = { ...selection, [name]: value };
    // Keep the other choices when that combination exists; otherwise take a variant with this value.
    const found = variants.find((v) => matches(v, wanted)) ?? variants.find((v) => v.options[name] === value);
    setSelection(found ? found.options : wanted);
    if (found) window.history.replaceState(null, '', `?variant=${encodeURIComponent(found.id)}`);
  }

  return (
    <div>
      <div aria-live="polite" aria-atomic="true">
        <p className="price">
          <span className={variant?.compareAtPrice ? 'price-sale' : undefined}>{variant?.price ?? '—'}</span>
          {variant?.compareAtPrice ? (
            <>
              <del aria-hidden="true">{variant.compareAtPrice}</del>
              <span className="visually-hidden">{fill(t.priceWas, { price: variant.compareAtPrice })}</span>
            </>
          ) : null}
        </p>
        {priceNote}
        <p>
          <span className={`badge badge-${status}`} data-testid="availability">
            {availabilityLabel(status, t)}
          </span>
        </p>
      </div>

      {options.map((option) => (
        <fieldset className="option-group" key={option.name}>
          <legend>
            {option.name}: <span className="muted">{selection[option.name]}</span>
          </legend>
          <div className="option-values">
            {option.values.map((value) => {
              const candidate = variants.find((v) => matches(v, { ...selection, [option.name]: value }));
              const soldOut = !candidate || statusOf(candidate) === 'out_of_stock';
              return (
                <label key={value} className={soldOut ? 'unavailable' : undefined}>
                  {/* Part of the add form (by its id), so that without JavaScript the form
                      posts what was picked and the server finds its variant (cart-commands.ts). */}
                  <input
                    type="radio"
                    name={`option:${option.name}`}
                    value={value}
                    form={`${id}-add`}
                    checked={selection[option.name] === value}
                    onChange={() => choose(option.name, value)}
                  />
                  <span>
                    {value}
                    {soldOut ? <span className="visually-hidden"> ({t.outOfStock})</span> : null}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}

      {variant && purchasable ? (
        <form id={`${id}-add`} action={ADD_ITEM} method="post" onSubmit={addToCart}>
          <input type="hidden" name="variantId" value={variant.id} />
          <input type="hidden" name="productHandle" value={productHandle} />
          <div className="buy-row">
            <div className="field">
              <label htmlFor={`${id}-qty`}>{t.quantity}</label>
              <input id={`${id}-qty`} name="quantity" type="number" min={1} max={99} defaultValue={1} inputMode="numeric" />
            </div>
            <button className="btn btn-primary" type="submit" disabled={adding}>
              {adding ? t.adding : status === 'preorder' ? t.preorderCta : t.addToCart}
            </button>
          </div>
        </form>
      ) : null}
      <div aria-live="polite">
        {cartState.status === 'added' && !adding ? (
          <p className="notice notice-success" key={cartState.at}>
            {cartState.message}{' '}
            <ShopLink href="/cart" fullLoad={fullLoads}>
              {t.viewCart}
            </ShopLink>
          </p>
        ) : null}
        {cartState.status === 'error' && !adding ? (
          <p className="notice notice-error" key={cartState.at}>
            {cartState.message}
          </p>
        ) : null}
      </div>

      {variant && !purchasable && canSubscribe ? (
        <section className="panel mt-16" aria-labelledby={`${id}-restock`}>
          <h2 id={`${id}-restock`}>{t.restockTitle}</h2>
          <p className="muted">{t.restockText}</p>
          <SignupForm
            key={variant.id}
            action={signUpForRestock}
            consentText={t.restockConsent}
            submitLabel={t.restockSubmit}
            doneText={t.restockDone}
            hidden={{ variantId: variant.id }}
            t={t}
          />
        </section>
      ) : null}

      {variant ? (
        <p className="product-meta">
          {t.sku}: {variant.sku}
        </p>
      ) : null}
    </div>
  );
}
