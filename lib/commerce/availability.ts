import { and, eq, inArray, sql } from 'drizzle-orm';
import { inventoryLevels, productVariants, products, sites } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import { prepared } from '@/db/prepared';
import type { AvailabilityStatus } from '@/lib/contract/common';
import type { StockPolicy } from '@/lib/contract/catalog-document';
import { MAX_AVAILABILITY_BATCH } from '@/lib/contract/operations/reads';
import { BoundedCache, cacheable, VersionedMemo, versionKey } from '@/lib/platform/cache/memo';
import { preparedCatalogVersion } from '@/lib/platform/auth/prepared-reads';
import { DomainError, NotFound } from '@/lib/platform/errors';
import { isPublished } from './published';

export type StockLevel = { quantity: number; lowStockThreshold: number; policy: StockPolicy };

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

/** A Site by id, or by id and the catalog version its request already read. */
export type SiteRef = string | { id: string; catalogVersion: number };

/**
 * Statuses per (Site, catalog version). Every stock, price, product or variant change
 * bumps the version (database triggers), so a status found here is the status now, in
 * this instance or any other on the same database: reading the version is the freshness
 * check (one indexed read), and a batch only queries the ids it has not seen at that
 * version. Bounded: a few versions, and a cap on ids per version.
 */
const statuses = new VersionedMemo<AvailabilityStatus>(8, 50_000);

function versionQuery(database: DbOrTx) {
  return database
    .select({ v: sites.catalogVersion })
    .from(sites)
    .where(eq(sites.id, sql.placeholder('siteId')))
    .prepare();
}

/** The freshness check: one indexed read, prepared once (lib/platform/auth/prepared-reads.ts). */
async function catalogVersionOf(database: DbOrTx, siteId: string): Promise<number | null> {
  const fast = await preparedCatalogVersion(database, siteId);
  if (fast !== undefined) return fast;
  const query = prepared(database, 'availability.version', versionQuery);
  const [row] = await query.all({ siteId });
  return row?.v ?? null;
}

/** Coarse availability of published variants of one Site, by id. Unknown ids are absent. */
export async function readAvailability(database: DbOrTx, site: SiteRef, variantIds: string[]): Promise<Map<string, AvailabilityStatus>> {
  const siteId = typeof site === 'string' ? site : site.id;
  if (variantIds.length === 0) return new Map();
  if (!cacheable(database)) return queryAvailability(database, siteId, variantIds);
  const version = typeof site === 'string' ? await catalogVersionOf(database, siteId) : site.catalogVersion;
  if (version === null) return new Map();
  return statuses.many(versionKey(database, { id: siteId, catalogVersion: version }), variantIds, (missing) =>
    queryAvailability(database, siteId, missing),
  );
}

async function queryAvailability(database: DbOrTx, siteId: string, variantIds: string[]) {
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
    rows.map((r) => [
      r.id,
      availabilityStatus(r.quantity === null ? null : { quantity: r.quantity, lowStockThreshold: r.lowStockThreshold!, policy: r.policy! }),
    ]),
  );
}

/** One variant's coarse status; the route stamps `asOf` on the answer. */
export async function readVariantAvailability(database: DbOrTx, site: SiteRef, variantId: string) {
  const status = (await readAvailability(database, site, [variantId])).get(variantId);
  if (!status) throw new NotFound('The variant');
  return { variantId, ...describeAvailability(status) };
}

export type AvailabilityStatuses = {
  data: Array<{ variantId: string } & ReturnType<typeof describeAvailability>>;
  notFound: string[];
};

/**
 * Whole batch answers per (Site, catalog version, the ids asked for), frozen: a storefront
 * asks for the same variants again and again (a product page's, a cart's), and while the
 * catalog stands still the answer is the same — so is its serialised form (lib/api/route.ts
 * keeps those bytes with the answer). Up to 2,000 answers / ~12 MB of heap (an answer of
 * 100 statuses, ~10 KB of JSON, weighs ~3× its JSON with its serialised bytes: some 400 of them).
 */
const batches = new BoundedCache<AvailabilityStatuses>(2000, 12 * 1024 * 1024, 3, 'availability');

/**
 * A list of ids with duplicates folded (order kept), and its text as a cache key. The
 * route hands the same frozen list to every request with the same query
 * (lib/api/route.ts), so this is worked out once per list, not once per request.
 */
const folded = new WeakMap<readonly string[], { unique: string[]; key: string }>();

function foldIds(variantIds: readonly string[]): { unique: string[]; key: string } {
  let known = folded.get(variantIds);
  if (!known) {
    const unique = [...new Set(variantIds)];
    known = { unique, key: unique.join(',') };
    if (Object.isFrozen(variantIds)) folded.set(variantIds, known);
  }
  return known;
}

/** Batch availability without its timestamp: duplicates folded, order kept, unknown ids in notFound. */
export async function readAvailabilityStatuses(
  database: DbOrTx,
  site: SiteRef,
  variantIds: readonly string[],
): Promise<AvailabilityStatuses> {
  const { unique, key: ids } = foldIds(variantIds);
  if (unique.length > MAX_AVAILABILITY_BATCH) {
    throw new DomainError('too_many_variant_ids', `Ask for at most ${MAX_AVAILABILITY_BATCH} variants at once (got ${unique.length}).`, {
      errors: [{ pointer: '#/query/variantIds', code: 'too_many_variant_ids', detail: `At most ${MAX_AVAILABILITY_BATCH} distinct ids.` }],
    });
  }
  if (typeof site === 'string' || !cacheable(database)) return statusesOf(unique, await readAvailability(database, site, unique));
  const key = `${versionKey(database, site)}|${ids}`;
  return batches.through(key, async () => statusesOf(unique, await readAvailability(database, site, unique)));
}

function statusesOf(ids: string[], found: Map<string, AvailabilityStatus>): AvailabilityStatuses {
  const data: AvailabilityStatuses['data'] = [];
  const notFound: string[] = [];
  for (const id of ids) {
    const status = found.get(id);
    if (status) data.push({ variantId: id, ...describeAvailability(status) });
    else notFound.push(id);
  }
  return { data, notFound };
}

/** Batch availability: duplicates folded, order kept, unknown ids listed in notFound. */
export async function readAvailabilityBatch(database: DbOrTx, site: SiteRef, variantIds: string[], now = new Date()) {
  return { ...(await readAvailabilityStatuses(database, site, variantIds)), asOf: now.toISOString() };
}
