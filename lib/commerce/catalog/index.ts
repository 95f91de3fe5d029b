export {
  getPublishedProduct,
  productKept,
  productScopes,
  listProducts,
  listCatalog,
  type Page,
  type PageRequest,
  type ProductFilter,
  type ProductListRequest,
} from './products';
export { getCollection, listCollections } from './collections';
export { readSite, readStorefrontSnapshot } from './storefront';
