'use server';
import { fetchAvailability, fetchAvailabilityBatch, fetchProduct, isSiteApiError } from '@/lib/site-client';
import { track } from '../_lib/analytics';
import { MAX_QUANTITY, bundleQuantityOf, itemCount, quantityOf, readCart, withBundleQuantity, withQuantity, writeCart } from '../_lib/cart';
import { locality, shop } from '../_lib/shop';

/** `cartCount`: the cart's item count after an add, for the header of a cached page (which cannot read the cookie). */
export type CartActionState = { status: 'idle' | 'added' | 'error'; message?: string; at?: number; cartCount?: number };

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const HANDLE = /^[a-z0-9][a-z0-9-]{0,199}$/;

function quantityFrom(form: FormData, fallback = 1): number {
  const n = Number(form.get('quantity') ?? fallback);
  return Number.isInteger(n) ? Math.max(1, Math.min(MAX_QUANTITY, n)) : fallback;
}

/**
 * Adds a variant to the cart cookie after asking the API whether it can be bought now;
 * the price is never stored — the checkout prices every line from the catalog.
 */
export async function addToCart(_: CartActionState, form: FormData): Promise<CartActionState> {
  const { t } = await shop();
  const variantId = String(form.get('variantId') ?? '');
  const productHandle = String(form.get('productHandle') ?? '');
  if (!ID.test(variantId)) return { status: 'error', message: t.tryAgainLater, at: Date.now() };
  const quantity = quantityFrom(form);
  try {
    const availability = await fetchAvailability(variantId);
    if (!availability.purchasable) return { status: 'error', message: t.soldOutCannotAdd, at: Date.now() };
  } catch (error) {
    return { status: 'error', message: isSiteApiError(error, 'not_found') ? t.lineUnavailable : t.tryAgainLater, at: Date.now() };
  }
  const cart = await readCart();
  const stored = await writeCart(withQuantity(cart, variantId, quantityOf(cart, variantId) + quantity));
  const where = HANDLE.test(productHandle) ? { productHandle, path: `/products/${productHandle}` } : {};
  await track([{ type: 'add_to_cart', variantId, quantity, ...where }]);
  return { status: 'added', message: t.added, at: Date.now(), cartCount: itemCount(stored) };
}

/**
 * Adds one of the product's bundles as a whole (read from the API, not from the form): the
 * checkout charges the bundle's price for it. Refused when an item cannot be bought now.
 */
export async function addBundleToCart(_: CartActionState, form: FormData): Promise<CartActionState> {
  const { t } = await shop();
  const handle = String(form.get('productHandle') ?? '');
  const bundleId = String(form.get('bundleId') ?? '');
  if (!HANDLE.test(handle) || !ID.test(bundleId)) return { status: 'error', message: t.tryAgainLater, at: Date.now() };
  try {
    const product = await fetchProduct(handle, await locality());
    const bundle = product.bundles.find((b) => b.id === bundleId);
    if (!bundle) return { status: 'error', message: t.lineUnavailable, at: Date.now() };
    const availability = await fetchAvailabilityBatch(bundle.items.map((i) => i.variantId));
    const buyable = new Set(availability.data.filter((a) => a.purchasable).map((a) => a.variantId));
    if (!bundle.items.every((i) => buyable.has(i.variantId))) return { status: 'error', message: t.bundleSoldOut, at: Date.now() };
    const cart = await readCart();
    const stored = await writeCart(withBundleQuantity(cart, { bundleId, productHandle: handle }, bundleQuantityOf(cart, bundleId) + 1));
    await track(bundle.items.map((item) => ({ type: 'add_to_cart' as const, variantId: item.variantId, quantity: item.quantity, productHandle: handle, path: `/products/${handle}` })));
    return { status: 'added', message: t.bundleAdded, at: Date.now(), cartCount: itemCount(stored) };
  } catch {
    return { status: 'error', message: t.tryAgainLater, at: Date.now() };
  }
}

/** Cart page: set a bundle's quantity (0 removes it). */
export async function setBundleQuantity(form: FormData): Promise<void> {
  const bundleId = String(form.get('bundleId') ?? '');
  const quantity = Number(form.get('quantity'));
  if (!ID.test(bundleId) || !Number.isInteger(quantity)) return;
  const cart = await readCart();
  const entry = cart.bundles.find((b) => b.bundleId === bundleId);
  if (!entry) return;
  await writeCart(withBundleQuantity(cart, entry, quantity));
}

export async function removeBundle(form: FormData): Promise<void> {
  form.set('quantity', '0');
  await setBundleQuantity(form);
}

/** Cart page: set a line's quantity (0 removes it). */
export async function setLineQuantity(form: FormData): Promise<void> {
  const variantId = String(form.get('variantId') ?? '');
  const quantity = Number(form.get('quantity'));
  if (!ID.test(variantId) || !Number.isInteger(quantity)) return;
  const cart = await readCart();
  const before = quantityOf(cart, variantId);
  if (before === 0) return;
  await writeCart(withQuantity(cart, variantId, quantity));
  if (quantity < before) await track([{ type: 'remove_from_cart', variantId, quantity: before - Math.max(0, quantity), path: '/cart' }]);
  else if (quantity > before) await track([{ type: 'add_to_cart', variantId, quantity: Math.min(MAX_QUANTITY, quantity) - before, path: '/cart' }]);
}

export async function removeLine(form: FormData): Promise<void> {
  form.set('quantity', '0');
  await setLineQuantity(form);
}
