import { and, asc, eq, inArray } from 'drizzle-orm';
import { bundleItems, bundlePrices, bundles, products } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { bundleTitle } from '../catalog/option-texts';
import { isPublished } from '../published';
import type { CatalogVariant } from './catalog-lines';
import { lineTotal } from './pricing';
import type { LineRow } from './session-storage';

/** A bundle of a published product of the Site, priced in one market. */
export type CatalogBundle = { id: string; title: string; price: number; items: { variantId: string; quantity: number }[] };

/**
 * Bundles by id that belong to a published product of the Site and have a price in the
 * market, titled in `locale`. Unknown, other Sites' and unpriced bundles are absent. Whether
 * every item can be sold is the caller's question (it reads the items with readCatalogVariants).
 */
export async function readCatalogBundles(
  database: DbOrTx,
  site: SiteContext['site'],
  marketId: string,
  locale: string,
  ids: string[],
): Promise<Map<string, CatalogBundle>> {
  if (ids.length === 0) return new Map();
  const rows = await database
    .select({ id: bundles.id, title: bundles.title, titles: bundles.titles, price: bundlePrices.amount })
    .from(bundles)
    .innerJoin(products, eq(products.id, bundles.productId))
    .innerJoin(bundlePrices, and(eq(bundlePrices.bundleId, bundles.id), eq(bundlePrices.marketId, marketId)))
    .where(and(inArray(bundles.id, [...new Set(ids)]), isPublished(site.id)));
  if (rows.length === 0) return new Map();
  const heads = rows.map(({ titles, ...h }) => ({ ...h, title: bundleTitle(h.title, titles, locale) }));
  const items = await database
    .select({ bundleId: bundleItems.bundleId, variantId: bundleItems.variantId, quantity: bundleItems.quantity })
    .from(bundleItems)
    .where(
      inArray(
        bundleItems.bundleId,
        heads.map((h) => h.id),
      ),
    )
    .orderBy(asc(bundleItems.bundleId), asc(bundleItems.position));
  return new Map(
    heads
      .map((h) => ({ ...h, items: items.filter((i) => i.bundleId === h.id).map(({ variantId, quantity }) => ({ variantId, quantity })) }))
      .filter((b) => b.items.length > 0)
      .map((b) => [b.id, b]),
  );
}

/** The bundle's items as sellable catalog variants, or null when any item is unknown, unpublished or unpriced in the market. */
export function bundleVariants(bundle: CatalogBundle, catalog: Map<string, CatalogVariant>): CatalogVariant[] | null {
  const found = bundle.items.map((i) => catalog.get(i.variantId));
  return found.every((v): v is CatalogVariant => v !== undefined && v.unitPrice !== null) ? found : null;
}

/**
 * Splits `price` (minor units) over items in proportion to each item's own price × its
 * quantity, in integers that add up to exactly `price`. Each share is kept a multiple of
 * the item's quantity where the arithmetic allows, so a line's unit price × quantity is
 * its total; otherwise the last minor units land on the item whose quantity divides
 * them, or the first by remainder. BigInt: price × weight can pass 2^53.
 */
export function allocateBundlePrice(price: number, items: readonly { unitPrice: number; quantity: number }[]): number[] {
  if (!Number.isSafeInteger(price) || price < 0) throw new Error('bundle price out of range');
  if (items.length === 0) return [];
  // All-free items would divide by zero: then the price is split by quantity alone.
  const free = items.every((i) => i.unitPrice === 0);
  const unit = items.map((i) => BigInt(free ? 1 : i.unitPrice));
  const qty = items.map((i) => BigInt(i.quantity));
  const base = unit.reduce((sum, u, k) => sum + u * qty[k]!, 0n);
  const total = BigInt(price);
  const shares = unit.map((u, k) => ((total * u) / base) * qty[k]!);
  const rest = unit.map((u) => (total * u) % base);
  let left = total - shares.reduce((a, b) => a + b, 0n);
  // Largest remainder first (ties by position), whole units of the item at a time.
  const order = items.map((_, k) => k).sort((a, b) => (rest[b]! > rest[a]! ? 1 : rest[b]! < rest[a]! ? -1 : a - b));
  for (const k of order) {
    if (qty[k]! <= left) {
      shares[k]! += qty[k]!;
      left -= qty[k]!;
    }
  }
  if (left > 0n) {
    const k = order.find((j) => left % qty[j]! === 0n) ?? order[0]!;
    shares[k]! += left;
  }
  return shares.map(Number);
}

/** One session line per bundle item, carrying the bundle's price allocated in this market. */
/** A plain (not bundled) line of a variant at its catalog price in the market. */
export function variantLine(
  variantId: string,
  variant: CatalogVariant & { unitPrice: number },
  quantity: number,
  position: number,
): LineRow {
  return {
    position,
    variantId,
    productHandle: variant.productHandle,
    title: variant.title,
    quantity,
    unitPrice: variant.unitPrice,
    total: lineTotal(variant.unitPrice, quantity),
    bundleId: null,
    bundleQuantity: null,
  };
}

export function bundleLines(bundle: CatalogBundle, variants: CatalogVariant[], bundleQuantity: number, firstPosition: number): LineRow[] {
  const shares = allocateBundlePrice(
    bundle.price,
    bundle.items.map((item, k) => ({ unitPrice: variants[k]!.unitPrice!, quantity: item.quantity })),
  );
  return bundle.items.map((item, k) => {
    const variant = variants[k]!;
    const share = shares[k]!;
    return {
      position: firstPosition + k,
      variantId: item.variantId,
      productHandle: variant.productHandle,
      title: `${variant.title} (${bundle.title})`,
      quantity: item.quantity * bundleQuantity,
      // Exact when the share divides by the item's quantity (always for single items); else rounded down, and `total` is what is charged.
      unitPrice: Math.floor(share / item.quantity),
      total: lineTotal(share, bundleQuantity),
      bundleId: bundle.id,
      bundleQuantity,
    };
  });
}
