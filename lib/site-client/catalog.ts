import 'server-only';
import {
  getAvailability,
  getAvailabilityBatch,
  getCollection,
  getProduct,
  getSite,
  getStorefront,
  listCatalog,
  listCollections,
  listProducts,
} from '@/lib/contract/operations/reads';
import type { ProductSort } from '@/lib/contract/operations/reads';
import type { SitePageKey } from '@/lib/contract/catalog';
import { call } from './request';

/** The market and locale a read is priced and translated for; both default to the Site's. */
export type Locality = { market?: string; locale?: string };
export type PageArgs = Locality & { limit?: number; cursor?: string };
/** Narrows a product list to the products named (up to 100 of each; see the API's filters). */
export type ProductFilterArgs = { handles?: string[]; variantIds?: string[] };

function filterQuery(filter: ProductFilterArgs) {
  const list = (values: string[] | undefined) => (values && values.length > 0 ? [...new Set(values)].join(',') : undefined);
  return { handles: list(filter.handles), variantIds: list(filter.variantIds) };
}

/** The Site; its markets are named in `locale` (default: the Site's default locale). */
export async function fetchSite(locale?: string) {
  return (await call(getSite, { query: { locale } })).data;
}

/** One of the shop's pages (imprint, privacy, …) in the locale, from the Site's settings: `markdown` null when they have none. */
export async function fetchSitePage(page: SitePageKey, locale: string) {
  const { page: found } = (await call(getSite, { query: { locale, page } })).data;
  if (!found) throw new Error(`GET /site answered without the page "${page}"`);
  return found;
}

export async function fetchStorefront(locality: Locality = {}) {
  return (await call(getStorefront, { query: locality })).data;
}

export async function fetchProducts({ handles, variantIds, ...args }: PageArgs & ProductFilterArgs = {}) {
  return (await call(listProducts, { query: { ...args, ...filterQuery({ handles, variantIds }) } })).data;
}

/**
 * Search, order and narrowing of a products list (the API's `q`, `sort`, `available`,
 * `priceMin`/`priceMax`, repeatable `option=Name:Value`, `collection`; `facets` adds the counts).
 */
export type ProductSearchArgs = {
  q?: string;
  sort?: ProductSort;
  available?: boolean;
  priceMin?: string;
  priceMax?: string;
  options?: string[];
  collection?: string;
  facets?: boolean;
};

export async function searchProducts({
  q,
  sort,
  available,
  priceMin,
  priceMax,
  options,
  collection,
  facets,
  ...page
}: PageArgs & ProductSearchArgs) {
  const query = {
    ...page,
    q,
    sort,
    priceMin,
    priceMax,
    collection,
    available: available ? ('true' as const) : undefined,
    option: options && options.length > 0 ? options : undefined,
    facets: facets ? ('true' as const) : undefined,
  };
  return (await call(listProducts, { query })).data;
}

export async function fetchCatalogPage({ handles, variantIds, ...args }: PageArgs & ProductFilterArgs = {}) {
  return (await call(listCatalog, { query: { ...args, ...filterQuery({ handles, variantIds }) } })).data;
}

export async function fetchProduct(handle: string, locality: Locality = {}) {
  return (await call(getProduct, { params: { handle }, query: locality })).data;
}

export async function fetchCollections(args: PageArgs = {}) {
  return (await call(listCollections, { query: args })).data;
}

export async function fetchCollection(handle: string, args: PageArgs = {}) {
  return (await call(getCollection, { params: { handle }, query: args })).data;
}

export async function fetchAvailability(variantId: string) {
  return (await call(getAvailability, { params: { variantId } })).data;
}

/** Availability of up to 100 variants (the API's own limit) in one request. */
export async function fetchAvailabilityBatch(variantIds: string[]) {
  return (await call(getAvailabilityBatch, { query: { variantIds: [...new Set(variantIds)].join(',') } })).data;
}
