import type { DbOrTx } from '@/db/client';
import { readTransaction, type Database } from '@/db/client';
import {
  CATALOG_FORMAT, CATALOG_FORMAT_VERSION,
  type CatalogCollection, type CatalogDocument, type CatalogProduct,
} from '@/lib/contract/catalog-document';
import { formatDecimal } from './amounts';
import { groupBy, loadCatalogState, loadTransferSite, type CatalogState, type TransferSite } from './state';

const byLocale = <T extends { locale: string }>(rows: T[]) => [...rows].sort((a, b) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0));
const byPosition = <T extends { position: number }>(rows: T[]) => [...rows].sort((a, b) => a.position - b.position);

/**
 * The document form of stored rows. Every list has a fixed order (products by handle,
 * collections by navigation position, the rest by position, locales by name, prices in
 * market order), so the same catalog always gives the same bytes.
 */
export function documentFromState(site: TransferSite, state: CatalogState): CatalogDocument {
  const currency = new Map(site.markets.map((m) => [m.id, m.currency]));
  const marketOrder = new Map(site.markets.map((m, i) => [m.id, i]));
  const texts = groupBy(state.productTranslations, (r) => r.productId);
  const images = groupBy(state.productImages, (r) => r.productId);
  const variants = groupBy(state.productVariants, (r) => r.productId);
  const prices = groupBy(state.variantPrices, (r) => r.variantId);
  const stock = new Map(state.inventoryLevels.map((r) => [r.variantId, r]));
  const bundleList = groupBy(state.bundles, (r) => r.productId);
  const bundleItems = groupBy(state.bundleItems, (r) => r.bundleId);
  const bundlePrices = groupBy(state.bundlePrices, (r) => r.bundleId);
  const skuOf = new Map(state.productVariants.map((v) => [v.id, v.sku]));
  const handleOf = new Map(state.products.map((p) => [p.id, p.handle]));
  const inMarketOrder = <T extends { marketId: string }>(rows: T[]) =>
    rows.filter((r) => currency.has(r.marketId)).sort((a, b) => marketOrder.get(a.marketId)! - marketOrder.get(b.marketId)!);

  const productList: CatalogProduct[] = state.products.map((p) => ({
    handle: p.handle,
    status: p.status,
    featuredPosition: p.featuredPosition,
    texts: Object.fromEntries(byLocale(texts.get(p.id) ?? []).map((t) => [t.locale, {
      title: t.title, description: t.description, seoTitle: t.seoTitle, seoDescription: t.seoDescription,
    }])),
    images: byPosition(images.get(p.id) ?? []).map((i) => ({ url: i.url, alt: i.alt, width: i.width, height: i.height })),
    options: p.options.map((o) => ({ name: o.name, values: [...o.values] })),
    variants: byPosition(variants.get(p.id) ?? []).map((v) => {
      const level = stock.get(v.id);
      return {
        sku: v.sku,
        title: v.title,
        options: v.options,
        prices: Object.fromEntries(inMarketOrder(prices.get(v.id) ?? []).map((r) => {
          const code = currency.get(r.marketId)!;
          return [r.marketId, {
            amount: formatDecimal(r.amount, code), currency: code,
            compareAt: r.compareAtAmount === null ? null : formatDecimal(r.compareAtAmount, code),
          }];
        })),
        // A variant without a level row counts as sold out (see availability.ts).
        stock: level
          ? { quantity: level.quantity, policy: level.policy, lowStockThreshold: level.lowStockThreshold }
          : { quantity: 0, policy: 'deny' as const, lowStockThreshold: 5 },
      };
    }),
    bundles: byPosition(bundleList.get(p.id) ?? []).map((b) => ({
      title: b.title,
      items: byPosition(bundleItems.get(b.id) ?? []).map((i) => ({ sku: skuOf.get(i.variantId) ?? '', quantity: i.quantity })),
      prices: Object.fromEntries(inMarketOrder(bundlePrices.get(b.id) ?? []).map((r) => {
        const code = currency.get(r.marketId)!;
        return [r.marketId, { amount: formatDecimal(r.amount, code), currency: code }];
      })),
    })),
  }));

  const collectionTexts = groupBy(state.collectionTranslations, (r) => r.collectionId);
  const members = groupBy(state.collectionProducts, (r) => r.collectionId);
  const collectionList: CatalogCollection[] = state.collections.map((c) => ({
    handle: c.handle,
    status: c.status,
    image: c.imageUrl
      ? { url: c.imageUrl, alt: c.imageAlt ?? '', width: c.imageWidth ?? 1, height: c.imageHeight ?? 1 }
      : null,
    texts: Object.fromEntries(byLocale(collectionTexts.get(c.id) ?? []).map((t) => [t.locale, { title: t.title, description: t.description }])),
    products: byPosition(members.get(c.id) ?? []).map((m) => handleOf.get(m.productId) ?? ''),
  }));

  return {
    format: CATALOG_FORMAT,
    version: CATALOG_FORMAT_VERSION,
    site: site.handle,
    markets: site.markets.map((m) => ({ id: m.id, currency: m.currency })),
    products: productList,
    collections: collectionList,
  };
}

/** One consistent snapshot of the Site's catalog as a document. */
export async function exportCatalog(database: Database, siteHandle: string): Promise<CatalogDocument> {
  return readTransaction(database, async (tx: DbOrTx) => {
    const site = await loadTransferSite(tx, siteHandle);
    return documentFromState(site, await loadCatalogState(tx, site.id));
  });
}

/**
 * The file form: two-space JSON, one product per chunk so a 10k catalog is never one
 * 40 MB string held twice (`write` gets each piece in order).
 */
export async function writeCatalogDocument(doc: CatalogDocument, write: (chunk: string) => Promise<void> | void): Promise<void> {
  const indent = (json: string) => json.replace(/\n/g, '\n    ');
  await write(`{\n  "format": ${JSON.stringify(doc.format)},\n  "version": ${doc.version},\n  "site": ${JSON.stringify(doc.site)},\n`);
  await write(`  "markets": ${JSON.stringify(doc.markets, null, 2).replace(/\n/g, '\n  ')},\n`);
  for (const key of ['products', 'collections'] as const) {
    const list = doc[key];
    if (list.length === 0) {
      await write(`  "${key}": []${key === 'products' ? ',' : ''}\n`);
      continue;
    }
    await write(`  "${key}": [\n`);
    for (let i = 0; i < list.length; i += 1) {
      await write(`    ${indent(JSON.stringify(list[i], null, 2))}${i < list.length - 1 ? ',' : ''}\n`);
    }
    await write(`  ]${key === 'products' ? ',' : ''}\n`);
  }
  await write('}\n');
}

export async function catalogDocumentText(doc: CatalogDocument): Promise<string> {
  const parts: string[] = [];
  await writeCatalogDocument(doc, (c) => void parts.push(c));
  return parts.join('');
}
