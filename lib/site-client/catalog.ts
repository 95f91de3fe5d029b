import 'server-only';
import {
  getAvailability, getAvailabilityBatch, getCollection, getProduct, getSite, getStorefront, listCatalog, listCollections, listProducts,
} from '@/lib/contract/operations/reads';
import { call } from './request';

/** The market and locale a read is priced and translated for; both default to the Site's. */
export type Locality = { market?: string; locale?: string };
export type PageArgs = Locality & { limit?: number; cursor?: string };

export async function fetchSite() {
  return (await call(getSite)).data;
}

export async function fetchStorefront(locality: Locality = {}) {
  return (await call(getStorefront, { query: locality })).data;
}

export async function fetchProducts(args: PageArgs = {}) {
  return (await call(listProducts, { query: args })).data;
}

export async function fetchCatalogPage(args: PageArgs = {}) {
  return (await call(listCatalog, { query: args })).data;
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
