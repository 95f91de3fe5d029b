import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import { collectionProducts, collectionTranslations, collections, products } from '@/db/schema';
import { readTransaction, type DbOrTx } from '@/db/client';
import type { Collection, CollectionSummary } from '@/lib/contract/catalog';
import type { Image } from '@/lib/contract/common';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { decodeCursor, encodeCursor } from '../cursor';
import { NotFound } from '@/lib/platform/errors';
import type { MarketChoice } from '../markets';
import { isPublished } from '../published';
import { cacheable, pageCache } from '@/lib/platform/cache/memo';
import { summarise } from './product-loaders';
import { pageKey, soldIn, type Page, type PageRequest } from './products';

type Site = SiteContext['site'];
type CollectionRow = typeof collections.$inferSelect;

const published = (siteId: string) => and(eq(collections.siteId, siteId), eq(collections.status, 'published'));

/** The collection's image, with its alt text in `locale` where it has one there. */
function image(row: CollectionRow, locale: string): Image | null {
  if (!row.imageUrl) return null;
  return {
    url: row.imageUrl,
    alt: row.imageAlts?.[locale] ?? row.imageAlt ?? '',
    width: row.imageWidth ?? 0,
    height: row.imageHeight ?? 0,
  };
}

async function texts(database: DbOrTx, ids: string[], locale: string, fallback: string) {
  const rows = ids.length
    ? await database
        .select()
        .from(collectionTranslations)
        .where(and(inArray(collectionTranslations.collectionId, ids), inArray(collectionTranslations.locale, [locale, fallback])))
    : [];
  const out = new Map<string, { title: string; description: string }>();
  for (const r of rows) if (r.locale === locale || !out.has(r.collectionId)) out.set(r.collectionId, r);
  return out;
}

/** Published members sold in the market, per collection. */
async function memberCounts(database: DbOrTx, siteId: string, ids: string[], marketId: string) {
  const rows = ids.length
    ? await database
        .select({ collectionId: collectionProducts.collectionId, n: count() })
        .from(collectionProducts)
        .innerJoin(products, eq(products.id, collectionProducts.productId))
        .where(and(inArray(collectionProducts.collectionId, ids), isPublished(siteId), soldIn(marketId)))
        .groupBy(collectionProducts.collectionId)
    : [];
  return new Map(rows.map((r) => [r.collectionId, r.n]));
}

/** Collections in navigation order (keyset on position); cached per catalog version. */
export async function listCollections(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: PageRequest,
): Promise<Page<CollectionSummary>> {
  // The collections, their texts and counts from one snapshot.
  const read = () => readTransaction(database, (tx) => readCollectionPage(tx, site, choice, request));
  if (!cacheable(database)) return read();
  const key = pageKey(database, 'collections', site, choice, request);
  return pageCache.through(key, read) as Promise<Page<CollectionSummary>>;
}

async function readCollectionPage(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: PageRequest,
): Promise<Page<CollectionSummary>> {
  const after = decodeCursor(request.cursor, 'collections', 'number');
  const rows = await database
    .select()
    .from(collections)
    .where(and(published(site.id), after === undefined ? undefined : gt(collections.position, after)))
    .orderBy(asc(collections.position))
    .limit(request.limit + 1);
  const more = rows.length > request.limit;
  const pageRows = more ? rows.slice(0, request.limit) : rows;
  const ids = pageRows.map((r) => r.id);
  const [text, counts] = await Promise.all([
    texts(database, ids, choice.locale, site.defaultLocale),
    memberCounts(database, site.id, ids, choice.market.id),
  ]);
  const last = pageRows.at(-1);
  return {
    data: pageRows.map((row) => ({
      id: row.id,
      handle: row.handle,
      title: text.get(row.id)?.title ?? row.handle,
      description: text.get(row.id)?.description ?? '',
      image: image(row, choice.locale),
      productCount: counts.get(row.id) ?? 0,
    })),
    page: { limit: request.limit, nextCursor: more && last ? encodeCursor('collections', last.position) : null },
  };
}

/** A collection and one page of its published members in stored order (keyset on position); cached per catalog version. */
export async function getCollection(
  database: DbOrTx,
  site: Site,
  handle: string,
  choice: MarketChoice,
  request: PageRequest,
): Promise<Collection> {
  const read = () => readTransaction(database, (tx) => readCollection(tx, site, handle, choice, request));
  if (!cacheable(database)) return read();
  const key = pageKey(database, 'collection', site, choice, request, handle);
  return pageCache.through(key, read) as Promise<Collection>;
}

async function readCollection(
  database: DbOrTx,
  site: Site,
  handle: string,
  choice: MarketChoice,
  request: PageRequest,
): Promise<Collection> {
  const [row] = await database
    .select()
    .from(collections)
    .where(and(published(site.id), eq(collections.handle, handle)));
  if (!row) throw new NotFound('The collection');
  const after = decodeCursor(request.cursor, `collection:${row.id}`, 'number');
  const members = await database
    .select({ product: products, position: collectionProducts.position })
    .from(collectionProducts)
    .innerJoin(products, eq(products.id, collectionProducts.productId))
    .where(
      and(
        eq(collectionProducts.collectionId, row.id),
        isPublished(site.id),
        soldIn(choice.market.id),
        after === undefined ? undefined : gt(collectionProducts.position, after),
      ),
    )
    .orderBy(asc(collectionProducts.position))
    .limit(request.limit + 1);
  const more = members.length > request.limit;
  const pageRows = more ? members.slice(0, request.limit) : members;
  const [text, summaries] = await Promise.all([
    texts(database, [row.id], choice.locale, site.defaultLocale),
    summarise(
      database,
      pageRows.map((m) => m.product),
      choice,
      site.defaultLocale,
    ),
  ]);
  const last = pageRows.at(-1);
  return {
    id: row.id,
    handle: row.handle,
    title: text.get(row.id)?.title ?? row.handle,
    description: text.get(row.id)?.description ?? '',
    image: image(row, choice.locale),
    products: summaries,
    page: { limit: request.limit, nextCursor: more && last ? encodeCursor(`collection:${row.id}`, last.position) : null },
  };
}

/** Navigation entries: every published collection, in order, with member counts and image. */
export async function navigation(database: DbOrTx, site: Site, choice: MarketChoice) {
  const rows = await database.select().from(collections).where(published(site.id)).orderBy(asc(collections.position));
  const ids = rows.map((r) => r.id);
  const [text, counts] = await Promise.all([
    texts(database, ids, choice.locale, site.defaultLocale),
    memberCounts(database, site.id, ids, choice.market.id),
  ]);
  return rows.map((r) => ({
    handle: r.handle,
    title: text.get(r.id)?.title ?? r.handle,
    productCount: counts.get(r.id) ?? 0,
    image: image(r, choice.locale),
  }));
}

/** What an automated collection's rules look at: a product's vendor, type and tags. */
export type RuleSubject = { vendor: string | null; type: string | null; tags: readonly string[] };
export type CollectionRules = { match: 'all' | 'any'; conditions: readonly string[] };

/**
 * Whether a product belongs to an automated collection: `tag:x` (one of its tags is x),
 * `type:x`, `vendor:x`; letter case and surrounding spaces aside, as Shopify compares them.
 */
export function matchesRules(product: RuleSubject, rules: CollectionRules): boolean {
  const fold = (s: string) => s.trim().toLocaleLowerCase('en');
  const tags = new Set(product.tags.map(fold));
  const test = (condition: string) => {
    const at = condition.indexOf(':');
    const kind = condition.slice(0, at);
    const value = fold(condition.slice(at + 1));
    if (kind === 'tag') return tags.has(value);
    if (kind === 'type') return product.type !== null && fold(product.type) === value;
    if (kind === 'vendor') return product.vendor !== null && fold(product.vendor) === value;
    return false;
  };
  return rules.match === 'any' ? rules.conditions.some(test) : rules.conditions.every(test);
}
