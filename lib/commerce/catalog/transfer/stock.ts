import type { CatalogProduct } from '@/lib/contract/catalog-document';
import { storedProducts } from './export';
import type { ImportSource } from './import';
import type { CatalogIssue } from './validate';

export type StockChange = { sku: string; quantity: number };

/** `SKU=QTY` arguments → changes, or what is wrong with each. The last `=` splits, so SKUs cannot contain one. */
export function parseStockArgs(args: string[]): { changes: StockChange[]; issues: CatalogIssue[] } {
  const changes: StockChange[] = [];
  const issues: CatalogIssue[] = [];
  args.forEach((arg, i) => {
    const at = arg.lastIndexOf('=');
    const sku = at > 0 ? arg.slice(0, at) : '';
    const qty = at > 0 ? arg.slice(at + 1) : '';
    if (!sku || !/^\d{1,10}$/.test(qty) || Number(qty) > 1_000_000_000) {
      issues.push({ pointer: `/${i}`, field: 'SKU=QTY', expected: `SKU=QTY with a whole quantity from 0 to 1000000000 (got "${arg}")` });
      return;
    }
    if (changes.some((c) => c.sku === sku))
      issues.push({ pointer: `/${i}`, field: 'SKU=QTY', expected: `each SKU once (got ${sku} again)` });
    changes.push({ sku, quantity: Number(qty) });
  });
  return { changes, issues };
}

/**
 * The daily "a delivery arrived" case, on the import path: the stored products of those
 * SKUs, with only their quantities changed, go through the same checks, plan and write
 * as a file would. Policies and thresholds stay as they are.
 */
export function stockSource(changes: StockChange[]): ImportSource {
  return {
    kind: 'partial',
    complete: async (site, index, loadDetails) => {
      const skus = new Set(changes.map((c) => c.sku));
      const owners = new Set(index.productVariants.filter((v) => skus.has(v.sku)).map((v) => v.productId));
      const bySku = new Map<string, CatalogProduct>();
      for (const p of await storedProducts(site, index, loadDetails, owners)) for (const v of p.variants) bySku.set(v.sku, p);
      const issues: CatalogIssue[] = [];
      const touched = new Set<CatalogProduct>();
      changes.forEach((change, i) => {
        const product = bySku.get(change.sku);
        if (!product) {
          issues.push({ pointer: `/${i}`, field: 'sku', expected: `the SKU of a variant of Site "${site.handle}" (got "${change.sku}")` });
          return;
        }
        const variant = product.variants.find((v) => v.sku === change.sku)!;
        variant.stock = { policy: 'deny', lowStockThreshold: 5, ...variant.stock, quantity: change.quantity };
        touched.add(product);
      });
      return { products: [...touched], notes: [], issues };
    },
  };
}
