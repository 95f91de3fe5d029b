import { createHash, randomBytes } from 'node:crypto';

export const MAX_LINES = 100;
export const MAX_QUANTITY = 99;

export type CartLine = { variantId: string; quantity: number };
/** `nonce` is per cart: with the lines it makes the checkout's Idempotency-Key. */
export type Cart = { nonce: string; lines: CartLine[] };

const VARIANT_ID = /^[A-Za-z0-9_-]{1,80}$/;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Reads the cookie `nonce.variantId~qty.variantId~qty` — ids and quantities only, never
 * prices (characters a cookie carries without escaping). Anything malformed is dropped, quantities are clamped to 1–99, repeated
 * variants are merged and at most 100 lines are kept: the cookie is shopper-controlled.
 */
export function parseCart(value: string | undefined): Cart {
  const [nonce, ...entries] = (value ?? '').split('.');
  const lines: CartLine[] = [];
  for (const entry of entries) {
    const [variantId, qty] = entry.split('~');
    const quantity = Number(qty);
    if (!variantId || !VARIANT_ID.test(variantId) || !Number.isInteger(quantity) || quantity < 1) continue;
    const existing = lines.find((l) => l.variantId === variantId);
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + quantity);
    else if (lines.length < MAX_LINES) lines.push({ variantId, quantity: Math.min(MAX_QUANTITY, quantity) });
  }
  if (nonce && NONCE.test(nonce)) return { nonce, lines };
  // A new cart gets a random nonce (checkout keys are per credential, shared by every
  // shopper, so two carts must never share one). A cookie without a usable nonce gets one
  // derived from its content, so two requests carrying it (a double click) still agree.
  return { nonce: value ? createHash('sha256').update(value).digest('base64url').slice(0, 16) : newNonce(), lines };
}

export function serializeCart(cart: Cart): string {
  return [cart.nonce, ...cart.lines.slice(0, MAX_LINES).map((l) => `${l.variantId}~${l.quantity}`)].join('.');
}

export function newNonce(): string {
  return randomBytes(12).toString('base64url');
}

export function withQuantity(cart: Cart, variantId: string, quantity: number): Cart {
  const clamped = Math.max(0, Math.min(MAX_QUANTITY, Math.trunc(quantity)));
  const others = cart.lines.filter((l) => l.variantId !== variantId);
  if (clamped === 0) return { ...cart, lines: others };
  const index = cart.lines.findIndex((l) => l.variantId === variantId);
  const lines = [...cart.lines];
  if (index >= 0) lines[index] = { variantId, quantity: clamped };
  else if (lines.length < MAX_LINES) lines.push({ variantId, quantity: clamped });
  return { ...cart, lines };
}

export function quantityOf(cart: Cart, variantId: string): number {
  return cart.lines.find((l) => l.variantId === variantId)?.quantity ?? 0;
}

export function itemCount(cart: Cart): number {
  return cart.lines.reduce((sum, l) => sum + l.quantity, 0);
}
