import { describe, expect, it } from 'vitest';
import { MAX_BUNDLE_PRODUCTS, MAX_LINES, parseCart, withBundleQuantity } from '@/app/(storefront)/_lib/cart-codec';

describe('the cart cookie is bounded whatever a shopper writes into it', () => {
  it('keeps at most 100 distinct lines, and bundles of at most 4 products', () => {
    const lines = Array.from({ length: 250 }, (_, i) => `var_forged${i}~1~!product-${i}`);
    const bundles = Array.from({ length: 20 }, (_, i) => `bun_${i}~1~bundle-product-${i}`);
    const cart = parseCart(['nonce_123456', ...lines, ...bundles].join('.'));
    expect(MAX_LINES).toBe(100);
    expect(cart.lines).toHaveLength(100);
    expect(new Set(cart.bundles.map((b) => b.productHandle)).size).toBe(MAX_BUNDLE_PRODUCTS);
    expect(cart.bundles.map((b) => b.bundleId)).toEqual(['bun_0', 'bun_1', 'bun_2', 'bun_3']);
  });

  it('lets many bundles of the same products in, but no bundle of a fifth product', () => {
    const many = Array.from({ length: 12 }, (_, i) => `bun_${i}~1~set-${i % 2}`);
    const cart = parseCart(['nonce_123456', ...many, 'bun_x~1~set-2', 'bun_y~1~set-3'].join('.'));
    expect(cart.bundles).toHaveLength(14);
    expect(withBundleQuantity(cart, { bundleId: 'bun_z', productHandle: 'set-4' }, 1).bundles).toHaveLength(14);
    expect(withBundleQuantity(cart, { bundleId: 'bun_z', productHandle: 'set-1' }, 1).bundles).toHaveLength(15);
  });
});
