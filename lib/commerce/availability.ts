import { and, eq, inArray } from 'drizzle-orm';
import { inventoryLevels, productVariants, products } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import type { AvailabilityStatus } from '@/lib/contract/common';
import { DomainError, NotFound } from './errors';

export const MAX_BATCH_VARIANTS = 100;
import { isPublished } from './published';

export type StockLevel = { quantity: number; lowStockThreshold: number; policy: 'deny' | 'preorder' | 'continue' };

/** The one mapping from a stock level to the coarse status the API shows. */
export function availabilityStatus(level: StockLevel | null): AvailabilityStatus {
  if (!level) return 'out_of_stock';
  if (level.policy === 'continue') return 'in_stock';
  if (level.quantity > level.lowStockThreshold) return 'in_stock';
  if (level.quantity > 0) return 'low_stock';
  return level.policy === 'preorder' ? 'preorder' : 'out_of_stock';
}

export function describeAvailability(status: AvailabilityStatus) {
  return { status, purchasable: status !== 'out_of_stock', canSubscribe: status === 'out_of_stock' };
}

/** Can `quantity` units go into a checkout now? Preorder and untracked stock always can. */
export function canSell(level: StockLevel | null, quantity: number): boolean {
  if (!level) return false;
  if (level.policy !== 'deny') return true;
  return level.quantity >= quantity;
}

const RANK: Record<AvailabilityStatus, number> = { in_stock: 3, low_stock: 2, preorder: 1, out_of_stock: 0 };

/** The best status among several variants (a product is in stock if any variant is). */
export function bestStatus(statuses: AvailabilityStatus[]): AvailabilityStatus {
  return statuses.reduce<AvailabilityStatus>((best, s) => (RANK[s] > RANK[best] ? s : best), 'out_of_stock');
}

/** Coarse availability of published variants of one Site, by id. Unknown ids are absent. */
export async function readAvailability(database: DbOrTx, siteId: string, variantIds: string[]) {
  if (variantIds.length === 0) return new Map<string, AvailabilityStatus>();
  const rows = await database
    .select({
      id: productVariants.id,
      quantity: inventoryLevels.quantity,
      lowStockThreshold: inventoryLevels.lowStockThreshold,
      policy: inventoryLevels.policy,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(inventoryLevels, eq(inventoryLevels.variantId, productVariants.id))
    .where(and(eq(productVariants.siteId, siteId), inArray(productVariants.id, variantIds), isPublished(siteId)));
  return new Map(
    rows.map((r) => [r.id, availabilityStatus(r.quantity === null ? null : { quantity: r.quantity, lowStockThreshold: r.lowStockThreshold!, policy: r.policy! })]),
  );
}

export async function readVariantAvailability(database: DbOrTx, siteId: string, variantId: string, now = new Date()) {
  const status = (await readAvailability(database, siteId, [variantId])).get(variantId);
  if (!status) throw new NotFound('The variant');
  return { variantId, ...describeAvailability(status), asOf: now.toISOString() };
}

/** Batch availability: duplicates folded, order kept, unknown ids listed in notFound. */
export async function readAvailabilityBatch(database: DbOrTx, siteId: string, variantIds: string[], now = new Date()) {
  const unique = [...new Set(variantIds)];
  if (unique.length > MAX_BATCH_VARIANTS) {
    throw new DomainError('too_many_variant_ids', `Ask for at most ${MAX_BATCH_VARIANTS} variants at once (got ${unique.length}).`, {
      errors: [{ pointer: '#/query/variantIds', code: 'too_many_variant_ids', detail: `At most ${MAX_BATCH_VARIANTS} distinct ids.` }],
    });
  }
  const found = await readAvailability(database, siteId, unique);
  return {
    data: unique.filter((id) => found.has(id)).map((id) => ({ variantId: id, ...describeAvailability(found.get(id)!) })),
    notFound: unique.filter((id) => !found.has(id)),
    asOf: now.toISOString(),
  };
}
