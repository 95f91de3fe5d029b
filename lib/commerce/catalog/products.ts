import { and, asc, eq, exists, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { productVariants, products, variantPrices } from '@/db/schema';
import { baseDatabase, readTransaction, type Database, type DbOrTx } from '@/db';
import type { CatalogProduct, Product, ProductFacets, ProductSummary } from '@/lib/contract/catalog';
import type { Image } from '@/lib/contract/common';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { decodeCursor, encodeCursor } from '../cursor';
import { DomainError, NotFound } from '@/lib/platform/errors';
import type { MarketChoice } from '../markets';
import { isPublished } from '../published';
import { cacheable, pageCache, siteKey, versionKey } from '@/lib/platform/cache/memo';
import { freshnessFor, type KeptRead } from '@/lib/platform/cache/catalog-changes';
import { searchMatches, sortedPageOfProducts, withinMatches, type SortedListRequest } from './search';
import { checkNarrowing, indexFilterOf, narrowingKey, type Narrowing } from './narrowing';
import {
  facetsFrom,
  filtersVariants,
  listIndex,
  passes,
  pricedByMatches,
  summariesFrom,
  type IndexFilter,
  type ListIndex,
} from './list-index';
import { displayedOptions } from './option-texts';
import { iso, loadImages, loadTranslations, loadVariants, publicVariant, summarise } from './product-loaders';
import { loadProductByHandle, productByHandleStatement } from './product-by-handle';

type Site = SiteContext['site'];
export type PageRequest = { limit: number; cursor?: string };
/** Narrows a list to the products named; each filter given must match (AND). */
export type ProductFilter = { handles?: readonly string[]; variantIds?: readonly string[] };
export type ProductListRequest = PageRequest & ProductFilter;
/** The products list also searches and sorts (the catalog feed keeps handle order). */
export type ProductSearchRequest = ProductListRequest & Pick<SortedListRequest, 'q' | 'sort'> & Narrowing & { facets?: 'true' };
export type Page<T> = { data: T[]; page: { limit: number; nextCursor: string | null } };

/** Has at least one variant with a price in the market (else it is not sold there). */
export function soldIn(marketId: string) {
  return exists(
    sql`(select 1 from ${productVariants} inner join ${variantPrices} on ${variantPrices.variantId} = ${productVariants.id}
      where ${productVariants.productId} = ${products.id} and ${variantPrices.marketId} = ${marketId})`,
  );
}

/**
 * Where a product's answer is kept (the route keeps its bytes: lib/api/reply.ts, okKept): by
 * Site, market, locale and handle, for as long as nothing it shows changed — the product
 * itself (its variants, prices, stock statuses, images, texts, bundles), the products its
 * bundles hold, the collections it names, and the Site as a whole (productScopes). A change
 * to another product leaves it kept. None inside a transaction, whose reads may see its own
 * uncommitted writes.
 */
export async function productKept(database: DbOrTx, site: Site, handle: string, choice: MarketChoice): Promise<KeptRead | null> {
  if (!cacheable(database)) return null;
  return {
    key: `product|${siteKey(database, site)}|${choice.market.id}|${choice.locale}|${handle}`,
    fresh: await freshnessFor(database, site),
    scopesOf: productScopes,
    shared: {
      database: baseDatabase(database) as Database,
      address: { siteId: site.id, market: choice.market.id, locale: choice.locale, handle },
      alongside: () => {
        const { statement, product } = publishedProductStatement(database, site, handle, choice);
        return { statement, body: product };
      },
    },
  };
}

/** The catalog_changes scopes a product's answer shows (db/migrations/0026_catalog_change_scopes.sql). */
export function productScopes(product: Product): string[] {
  const scopes = new Set([`product:${product.handle}`]);
  for (const bundle of product.bundles) for (const item of bundle.items) scopes.add(`product:${item.productHandle}`);
  for (const collection of product.collections) scopes.add(`collection:${collection.handle}`);
  return [...scopes];
}

/**
 * A published product by handle, read from the database (the route keeps its answer:
 * productKept). One statement, so one snapshot (loadProductByHandle): an import committing
 * meanwhile is seen whole or not at all.
 */
export async function getPublishedProduct(database: DbOrTx, site: Site, handle: string, choice: MarketChoice): Promise<Product> {
  return productOf(database, await loadProductByHandle(database, site.id, handle, choice, site.defaultLocale), choice);
}

/**
 * getPublishedProduct as a statement to send in a batch with other reads (over a network,
 * one request for several: lib/api/route.ts sends it with the stored answer's read), and
 * how to make its result the product.
 */
export function publishedProductStatement(database: DbOrTx, site: Site, handle: string, choice: MarketChoice) {
  const { statement, loaded } = productByHandleStatement(database, site.id, handle, choice, site.defaultLocale);
  return { statement, product: (row: ArrayLike<unknown> | undefined) => productOf(database, loaded(row), choice) };
}

async function productOf(database: DbOrTx, found: Awaited<ReturnType<typeof loadProductByHandle>>, choice: MarketChoice): Promise<Product> {
  if (!found) throw new NotFound('The product');
  const { row, text, images, variants: vs, bundles: bundleList, collections: memberOf } = found;
  if (vs.length === 0) throw await notSoldIn(database, row, text?.title ?? row.handle, choice);
  const title = text?.title ?? row.handle;
  const description = text?.description ?? '';
  return {
    id: row.id,
    handle: row.handle,
    title,
    description,
    images,
    options: displayedOptions(row.options, text?.options),
    variants: vs.map((v) => publicVariant(v, images, row.options, text?.options)),
    bundles: bundleList,
    collections: memberOf,
    seo: { title: text?.seoTitle ?? title, description: text?.seoDescription ?? description.slice(0, 160) },
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * A published product without a price in the market: not a missing page but one this market
 * does not sell (an import priced it in the default market only), said with where it is sold.
 */
async function notSoldIn(database: DbOrTx, row: { id: string; handle: string }, title: string, choice: MarketChoice): Promise<DomainError> {
  const markets = await database
    .selectDistinct({ id: variantPrices.marketId })
    .from(variantPrices)
    .innerJoin(productVariants, eq(productVariants.id, variantPrices.variantId))
    .where(eq(productVariants.productId, row.id))
    .orderBy(asc(variantPrices.marketId));
  return new DomainError('not_sold_in_market', `The product is not sold in market "${choice.market.id}".`, {
    extensions: { product: { handle: row.handle, title }, soldIn: markets.map((m) => m.id) },
  });
}

/** The filter's conditions (none: every product). */
function filterConditions(filter: ProductFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.handles) conditions.push(inArray(products.handle, [...filter.handles]));
  if (filter.variantIds) {
    conditions.push(
      inArray(
        products.id,
        sql`(select ${productVariants.productId} from ${productVariants} where ${inArray(productVariants.id, [...filter.variantIds])})`,
      ),
    );
  }
  return conditions;
}

/** The filter as part of a cache key: values sorted, so the same set is the same key. */
function filterKey(filter: ProductFilter): string {
  const part = (values: readonly string[] | undefined) => (values ? [...values].sort().join(',') : '');
  return filter.handles || filter.variantIds ? `h=${part(filter.handles)};v=${part(filter.variantIds)}` : '';
}

/** One page of published products sold in the market, in handle order (keyset on handle). */
async function pageOfProducts(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: ProductListRequest,
  kind: string,
  extra: SQL[] = [],
) {
  const after = decodeCursor(request.cursor, kind, 'string');
  const rows = await database
    .select()
    .from(products)
    .where(
      and(
        isPublished(site.id),
        soldIn(choice.market.id),
        ...filterConditions(request),
        ...extra,
        after === undefined ? undefined : gt(products.handle, after),
      ),
    )
    .orderBy(asc(products.handle))
    .limit(request.limit + 1);
  const more = rows.length > request.limit;
  const pageRows = more ? rows.slice(0, request.limit) : rows;
  const last = pageRows.at(-1);
  return { rows: pageRows, page: { limit: request.limit, nextCursor: more && last ? encodeCursor(kind, last.handle) : null } };
}

/** The key of a page: the Site's catalog version, market, locale and the page asked for. */
export function pageKey(database: DbOrTx, kind: string, site: Site, choice: MarketChoice, request: PageRequest, extra = ''): string {
  return `${kind}|${versionKey(database, site)}|${choice.market.id}|${choice.locale}|${extra}|${request.limit}|${request.cursor ?? ''}`;
}

export type ProductListPage = Page<ProductSummary> & { facets?: ProductFacets };

export async function listProducts(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: ProductSearchRequest,
): Promise<ProductListPage> {
  // Checked (its amounts: 422s) before the cache, so a bad request is never a cache entry.
  checkNarrowing(choice, request);
  // The page, its summaries and facets from one snapshot.
  const read = () => readTransaction(database, (tx) => readProductPage(tx, site, choice, request));
  if (!cacheable(database)) return read();
  const searched =
    request.q === undefined && request.sort === undefined ? '' : `|${JSON.stringify([request.q ?? null, request.sort ?? null])}`;
  const key = pageKey(database, 'products', site, choice, request, filterKey(request) + searched + narrowingKey(request));
  return pageCache.through(key, read) as Promise<ProductListPage>;
}

/**
 * A page of the products list, filtered, sorted and counted over the list index
 * (list-index.ts), the plain list in handle order too: no request reads more than its page's
 * images (and a search its matches), whatever it asks.
 */
async function readProductPage(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: ProductSearchRequest,
): Promise<ProductListPage> {
  const index = await listIndex(database, site, choice);
  const keyed = request.sort !== undefined && request.sort !== 'relevance';
  // The search's products, once, when the order or the facets need them (relevance pages by level).
  const matches =
    request.q !== undefined && (keyed || request.facets) ? await searchMatches(database, site, request.q, choice.locale) : undefined;
  const filter = await indexFilterOf(database, site, choice, index, request);
  // Filtered by variant, a price order is by the prices of the variants that passed (what the cards show).
  const priced =
    (request.sort === 'price-asc' || request.sort === 'price-desc') && filtersVariants(filter) ? pricedByMatches(index, filter) : index;
  const { positions, page } =
    request.q === undefined && request.sort === undefined
      ? sortedPageOfHandles(index, filter, request)
      : await sortedPageOfProducts(database, site, choice, request, { index: priced, filter }, matches);
  // The summaries from the index; only the images are read (all of them when a variant's may be shown).
  const variantFiltered = filtersVariants(filter);
  const images =
    positions.length === 0
      ? new Map<string, Image[]>()
      : await loadImages(
          database,
          positions.map((p) => index.ids[p]!),
          !variantFiltered,
          choice.locale,
        );
  // Filtered by variant, each product shows the variants that passed (its `match`).
  const data = summariesFrom(index, positions, variantFiltered ? filter : null, images, choice.market.currency);
  if (!request.facets) return { data, page };
  // Facets count over the list's scope (search, handles, variants, collection), each with every filter but its own.
  const inScope = matches ? { ...filter, scope: withinMatches(index, filter.scope, matches) } : filter;
  return { data, page, facets: facetsFrom(index, inScope, choice.market.currency) };
}

/** A page in handle order (the index's own) of the products the filters pass, after the cursor's handle. */
function sortedPageOfHandles(index: ListIndex, filter: IndexFilter, request: PageRequest) {
  const after = decodeCursor(request.cursor, 'products', 'string');
  let p = 0;
  if (after !== undefined) {
    let hi = index.size;
    while (p < hi) {
      const mid = (p + hi) >> 1;
      if (index.handles[mid]! > after) hi = mid;
      else p = mid + 1;
    }
  }
  const positions: number[] = [];
  for (; p < index.size && positions.length <= request.limit; p++) if (passes(index, filter, p)) positions.push(p);
  const more = positions.length > request.limit;
  if (more) positions.pop();
  const last = positions.at(-1);
  return {
    positions,
    page: { limit: request.limit, nextCursor: more && last !== undefined ? encodeCursor('products', index.handles[last]!) : null },
  };
}

/** The catalog for feeds and sync: every published product with its variants, prices and availability. */
export async function listCatalog(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: ProductListRequest,
): Promise<Page<CatalogProduct>> {
  // The products, their texts, images and variants from one snapshot.
  const read = () => readTransaction(database, (tx) => readCatalogPage(tx, site, choice, request));
  if (!cacheable(database)) return read();
  const key = pageKey(database, 'catalog', site, choice, request, filterKey(request));
  return pageCache.through(key, read) as Promise<Page<CatalogProduct>>;
}

async function readCatalogPage(
  database: DbOrTx,
  site: Site,
  choice: MarketChoice,
  request: ProductListRequest,
): Promise<Page<CatalogProduct>> {
  const { rows, page } = await pageOfProducts(database, site, choice, request, 'catalog');
  const ids = rows.map((r) => r.id);
  const [texts, images, variants] = await Promise.all([
    loadTranslations(database, ids, choice.locale, site.defaultLocale),
    // Every image, not only the first: each variant is given the one that shows it.
    loadImages(database, ids, false, choice.locale),
    loadVariants(database, ids, choice),
  ]);
  const data = rows.map((row) => ({
    id: row.id,
    handle: row.handle,
    title: texts.get(row.id)?.title ?? row.handle,
    featuredImage: images.get(row.id)?.[0] ?? null,
    options: displayedOptions(row.options, texts.get(row.id)?.options),
    variants: (variants.get(row.id) ?? []).map((v) => publicVariant(v, images.get(row.id) ?? [], row.options, texts.get(row.id)?.options)),
    updatedAt: iso(row.updatedAt),
  }));
  return { data, page };
}

export { summarise };
