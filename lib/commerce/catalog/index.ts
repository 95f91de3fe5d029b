export { getPublishedProduct, listProducts, listCatalog, type Page, type PageRequest } from './products';
export { getCollection, listCollections } from './collections';
export { readSite, readStorefrontSnapshot } from './storefront';
