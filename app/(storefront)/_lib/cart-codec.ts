import { createHash, randomBytes } from 'node:crypto';

export const MAX_LINES = 100;
export const MAX_QUANTITY = 99;
export const MAX_BUNDLES = 20;
/**
 * Bundles are read from their products, one read each: a cart's bundles may come from at
 * most this many products, so no cookie can make a cart view cost more than a few reads.
 */
export const MAX_BUNDLE_PRODUCTS = 4;

/**
 * `productHandle`: the product the variant was added from, so the cart page reads that one
 * product instead of searching the catalog (absent in carts written before it was kept).
 */
export type CartLine = { variantId: string; quantity: number; productHandle?: string };
/** A bundle bought whole at its price; the product handle is where its price and items are read. */
export type CartBundle = { bundleId: string; productHandle: string; quantity: number };
/** `nonce` is per cart: with the lines and bundles it makes the checkout's Idempotency-Key. */
export type Cart = { nonce: string; lines: CartLine[]; bundles: CartBundle[] };

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const HANDLE = /^[a-z0-9][a-z0-9-]{0,99}$/;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Reads the cookie `nonce.variantId~qty~!productHandle.bundleId~qty~productHandle…` (a
 * line's handle is marked with `!`, which no handle starts with and a cookie carries
 * unencoded) — ids, handles and quantities only, never prices (characters a cookie
 * carries without escaping). Anything
 * malformed is dropped, quantities are clamped to 1–99, repeated variants (and bundles)
 * are merged and at most 100 lines and 20 bundles (of at most 4 products) are kept: the
 * cookie is shopper-controlled, and what a cart view costs the API must not depend on it.
 */
export function parseCart(value: string | undefined): Cart {
  const [nonce, ...entries] = (value ?? '').split('.');
  const lines: CartLine[] = [];
  const bundles: CartBundle[] = [];
  for (const entry of entries) {
    const [id, qty, handle, ...extra] = entry.split('~');
    const quantity = Number(qty);
    if (!id || !ID.test(id) || !Number.isInteger(quantity) || quantity < 1 || extra.length > 0) continue;
    if (handle?.startsWith('!')) {
      const productHandle = handle.slice(1);
      if (!HANDLE.test(productHandle)) continue;
      addLine(lines, { variantId: id, quantity, productHandle });
      continue;
    }
    if (handle !== undefined) {
      if (!HANDLE.test(handle)) continue;
      const existing = bundles.find((b) => b.bundleId === id);
      if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + quantity);
      else if (bundles.length < MAX_BUNDLES && fitsBundleProducts(bundles, handle)) {
        bundles.push({ bundleId: id, productHandle: handle, quantity: Math.min(MAX_QUANTITY, quantity) });
      }
      continue;
    }
    addLine(lines, { variantId: id, quantity });
  }
  if (nonce && NONCE.test(nonce)) return { nonce, lines, bundles };
  // A new cart gets a random nonce (checkout keys are per credential, shared by every
  // shopper, so two carts must never share one). A cookie without a usable nonce gets one
  // derived from its content, so two requests carrying it (a double click) still agree.
  return { nonce: value ? createHash('sha256').update(value).digest('base64url').slice(0, 16) : newNonce(), lines, bundles };
}

/** Can a bundle of this product join without the bundles spanning more than MAX_BUNDLE_PRODUCTS products? */
function fitsBundleProducts(bundles: CartBundle[], productHandle: string): boolean {
  const products = new Set(bundles.map((b) => b.productHandle));
  return products.has(productHandle) || products.size < MAX_BUNDLE_PRODUCTS;
}

/** A repeated variant is merged into its first line (which keeps a handle either carries). */
function addLine(lines: CartLine[], line: CartLine): void {
  const existing = lines.find((l) => l.variantId === line.variantId);
  if (existing) {
    existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + line.quantity);
    existing.productHandle ??= line.productHandle;
  } else if (lines.length < MAX_LINES) {
    lines.push({ ...line, quantity: Math.min(MAX_QUANTITY, line.quantity) });
  }
}

export function serializeCart(cart: Cart): string {
  return [
    cart.nonce,
    ...cart.lines.slice(0, MAX_LINES).map((l) => `${l.variantId}~${l.quantity}${l.productHandle ? `~!${l.productHandle}` : ''}`),
    ...cart.bundles.slice(0, MAX_BUNDLES).map((b) => `${b.bundleId}~${b.quantity}~${b.productHandle}`),
  ].join('.');
}

export function isCartEmpty(cart: Cart): boolean {
  return cart.lines.length === 0 && cart.bundles.length === 0;
}

export function newNonce(): string {
  return randomBytes(12).toString('base64url');
}

/** Sets a line's quantity (0 removes it); a known product handle is kept, a given one is recorded. */
export function withQuantity(cart: Cart, variantId: string, quantity: number, productHandle?: string): Cart {
  const clamped = Math.max(0, Math.min(MAX_QUANTITY, Math.trunc(quantity)));
  const others = cart.lines.filter((l) => l.variantId !== variantId);
  if (clamped === 0) return { ...cart, lines: others };
  const index = cart.lines.findIndex((l) => l.variantId === variantId);
  const handle = productHandle && HANDLE.test(productHandle) ? productHandle : cart.lines[index]?.productHandle;
  const line: CartLine = { variantId, quantity: clamped, ...(handle ? { productHandle: handle } : {}) };
  const lines = [...cart.lines];
  if (index >= 0) lines[index] = line;
  else if (lines.length < MAX_LINES) lines.push(line);
  return { ...cart, lines };
}

/** Sets a bundle's quantity (0 removes it); a new bundle is added after the others. */
export function withBundleQuantity(cart: Cart, bundle: Omit<CartBundle, 'quantity'>, quantity: number): Cart {
  const clamped = Math.max(0, Math.min(MAX_QUANTITY, Math.trunc(quantity)));
  const others = cart.bundles.filter((b) => b.bundleId !== bundle.bundleId);
  if (clamped === 0) return { ...cart, bundles: others };
  const index = cart.bundles.findIndex((b) => b.bundleId === bundle.bundleId);
  const bundles = [...cart.bundles];
  if (index >= 0) bundles[index] = { ...bundles[index]!, quantity: clamped };
  else if (bundles.length < MAX_BUNDLES && fitsBundleProducts(bundles, bundle.productHandle))
    bundles.push({ ...bundle, quantity: clamped });
  return { ...cart, bundles };
}

export function bundleQuantityOf(cart: Cart, bundleId: string): number {
  return cart.bundles.find((b) => b.bundleId === bundleId)?.quantity ?? 0;
}

export function quantityOf(cart: Cart, variantId: string): number {
  return cart.lines.find((l) => l.variantId === variantId)?.quantity ?? 0;
}

/** What the header badge counts: each plain unit and each bundle as one. */
export function itemCount(cart: Cart): number {
  return cart.lines.reduce((sum, l) => sum + l.quantity, 0) + cart.bundles.reduce((sum, b) => sum + b.quantity, 0);
}
