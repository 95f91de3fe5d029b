import 'server-only';
import { fetchAvailability, fetchAvailabilityBatch, fetchProduct, isSiteApiError } from '@/lib/site-client';
import { track } from './analytics';
import { MAX_QUANTITY, bundleQuantityOf, itemCount, quantityOf, readCart, withBundleQuantity, withQuantity, writeCart } from './cart';
import { locality, shop } from './shop';

/**
 * What adding to the cart answered. `cartCount` is the cart's item count after an add: the
 * header of a cached page cannot read the cookie, so it takes the count from here.
 */
export type CartCommandResult = { status: 'added' | 'error'; message: string; at: number; cartCount?: number; productHandle?: string };

const ID = /^[A-Za-z0-9_-]{1,80}$/;
export const PRODUCT_HANDLE = /^[a-z0-9][a-z0-9-]{0,199}$/;

function quantityFrom(form: URLSearchParams, fallback = 1): number {
  const n = Number(form.get('quantity') ?? fallback);
  return Number.isInteger(n) ? Math.max(1, Math.min(MAX_QUANTITY, n)) : fallback;
}

function handleFrom(form: URLSearchParams): string | undefined {
  const handle = form.get('productHandle') ?? '';
  return PRODUCT_HANDLE.test(handle) ? handle : undefined;
}

async function refused(message: (t: Awaited<ReturnType<typeof shop>>['t']) => string, productHandle?: string): Promise<CartCommandResult> {
  const { t } = await shop();
  return { status: 'error', message: message(t), at: Date.now(), productHandle };
}

/**
 * The variant the posted options (`option:<name>` fields, the product page's pickers) name:
 * what the shopper picked, also when no script kept the form's variantId in step with the
 * pickers. undefined when the form has none; null when no variant of the product has them.
 */
async function variantOfOptions(form: URLSearchParams, productHandle: string | undefined): Promise<string | null | undefined> {
  const wanted = [...form]
    .filter(([name]) => name.startsWith(OPTION_FIELD))
    .map(([name, value]) => [name.slice(OPTION_FIELD.length), value] as const);
  if (wanted.length === 0 || !productHandle) return undefined;
  try {
    const product = await fetchProduct(productHandle, await locality());
    return product.variants.find((v) => wanted.every(([name, value]) => v.options[name] === value))?.id ?? null;
  } catch (error) {
    if (isSiteApiError(error, 'not_found') || isSiteApiError(error, 'not_sold_in_market')) return null;
    throw error;
  }
}

/** The product page's option pickers post as `option:<option name>` (product-purchase.tsx). */
const OPTION_FIELD = 'option:';

/**
 * Adds a variant to the cart cookie after asking the API whether it can be bought now;
 * the price is never stored — the checkout prices every line from the catalog.
 */
export async function addLine(form: URLSearchParams): Promise<CartCommandResult> {
  const productHandle = handleFrom(form);
  let chosen: string | null | undefined;
  try {
    chosen = await variantOfOptions(form, productHandle);
  } catch {
    return refused((t) => t.tryAgainLater, productHandle);
  }
  if (chosen === null) return refused((t) => t.lineUnavailable, productHandle);
  const variantId = chosen ?? form.get('variantId') ?? '';
  if (!ID.test(variantId)) return refused((t) => t.tryAgainLater, productHandle);
  const quantity = quantityFrom(form);
  try {
    const availability = await fetchAvailability(variantId);
    if (!availability.purchasable) return refused((t) => t.soldOutCannotAdd, productHandle);
  } catch (error) {
    return refused((t) => (isSiteApiError(error, 'not_found') ? t.lineUnavailable : t.tryAgainLater), productHandle);
  }
  const cart = await readCart();
  const stored = await writeCart(withQuantity(cart, variantId, quantityOf(cart, variantId) + quantity, productHandle));
  const where = productHandle ? { productHandle, path: `/products/${productHandle}` } : {};
  await track([{ type: 'add_to_cart', variantId, quantity, ...where }]);
  const { t } = await shop();
  return { status: 'added', message: t.added, at: Date.now(), cartCount: itemCount(stored), productHandle };
}

/**
 * Adds one of the product's bundles as a whole (read from the API, not from the form): the
 * checkout charges the bundle's price for it. Refused when an item cannot be bought now.
 */
export async function addBundle(form: URLSearchParams): Promise<CartCommandResult> {
  const productHandle = handleFrom(form);
  const bundleId = form.get('bundleId') ?? '';
  if (!productHandle || !ID.test(bundleId)) return refused((t) => t.tryAgainLater, productHandle);
  try {
    const product = await fetchProduct(productHandle, await locality());
    const bundle = product.bundles.find((b) => b.id === bundleId);
    if (!bundle) return refused((t) => t.lineUnavailable, productHandle);
    const availability = await fetchAvailabilityBatch(bundle.items.map((i) => i.variantId));
    const buyable = new Set(availability.data.filter((a) => a.purchasable).map((a) => a.variantId));
    if (!bundle.items.every((i) => buyable.has(i.variantId))) return refused((t) => t.bundleSoldOut, productHandle);
    const cart = await readCart();
    const stored = await writeCart(withBundleQuantity(cart, { bundleId, productHandle }, bundleQuantityOf(cart, bundleId) + 1));
    const path = `/products/${productHandle}`;
    await track(
      bundle.items.map((item) => ({
        type: 'add_to_cart' as const,
        variantId: item.variantId,
        quantity: item.quantity,
        productHandle,
        path,
      })),
    );
    const { t } = await shop();
    return { status: 'added', message: t.bundleAdded, at: Date.now(), cartCount: itemCount(stored), productHandle };
  } catch {
    return refused((t) => t.tryAgainLater, productHandle);
  }
}
