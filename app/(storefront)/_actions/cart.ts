'use server';
import { track } from '../_lib/analytics';
import { MAX_QUANTITY, quantityOf, readCart, withBundleQuantity, withQuantity, writeCart } from '../_lib/cart';

const ID = /^[A-Za-z0-9_-]{1,80}$/;

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
  else if (quantity > before)
    await track([{ type: 'add_to_cart', variantId, quantity: Math.min(MAX_QUANTITY, quantity) - before, path: '/cart' }]);
}

export async function removeLine(form: FormData): Promise<void> {
  form.set('quantity', '0');
  await setLineQuantity(form);
}
