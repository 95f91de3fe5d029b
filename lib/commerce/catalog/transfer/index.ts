export { exportCatalog, exportCatalogTo, documentFromState, writeCatalogDocument, catalogDocumentText } from './export';
export {
  importCatalog,
  CatalogBusyError,
  parseCatalogDocument,
  readCatalogDocument,
  documentSource,
  deleteSource,
  type ImportResult,
  type ImportSource,
} from './import';
export { readShopifyCsv, shopifySource, descriptionFromHtml } from './shopify';
export { parseStockArgs, stockSource } from './stock';
export type { CatalogIssue } from './validate';
export type { ImportPlan } from './plan';
