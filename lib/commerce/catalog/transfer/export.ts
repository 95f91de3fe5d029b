import type { DbOrTx } from '@/db/client';
import { readTransaction, type Database } from '@/db/client';
import {
  CATALOG_FORMAT,
  CATALOG_FORMAT_VERSION,
  type CatalogCollection,
  type CatalogDocument,
  type CatalogProduct,
} from '@/lib/contract/catalog-document';
import { toMoney } from '../../money';
import {
  detailsLoader,
  groupBy,
  loadCatalogIndex,
  loadCatalogState,
  loadTransferSite,
  PRODUCT_SLICE,
  variantIdsOf,
  type CatalogIndex,
  type CatalogState,
  type DetailsLoader,
  type ProductDetails,
  type TransferSite,
} from './state';

const byLocale = <T extends { locale: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0));
const byPosition = <T extends { position: number }>(rows: T[]) => [...rows].sort((a, b) => a.position - b.position);

/**
 * The document form of stored rows. Every list has a fixed order (products by handle,
 * collections by navigation position, the rest by position, locales by name, prices in
 * market order), so the same catalog always gives the same bytes.
 */
export function documentFromState(site: TransferSite, state: CatalogState): CatalogDocument {
  return {
    ...documentHead(site),
    products: productsFromRows(site, state, state, state.products),
    collections: collectionsFromIndex(state),
  };
}

function documentHead(site: TransferSite): Omit<CatalogDocument, 'products' | 'collections'> {
  return {
    format: CATALOG_FORMAT,
    version: CATALOG_FORMAT_VERSION,
    site: site.handle,
    markets: site.markets.map((m) => ({
      id: m.id,
      currency: m.currency,
      names: Object.fromEntries(byLocale(site.marketTranslations.filter((t) => t.marketId === m.id)).map((t) => [t.locale, t.name])),
    })),
  };
}

/** The given products (rows of the index) as documents; `details` must hold their rows. */
export function productsFromRows(
  site: TransferSite,
  index: CatalogIndex,
  details: ProductDetails,
  rows: CatalogIndex['products'],
): CatalogProduct[] {
  const currency = new Map(site.markets.map((m) => [m.id, m.currency]));
  const marketOrder = new Map(site.markets.map((m, i) => [m.id, i]));
  const texts = groupBy(details.productTranslations, (r) => r.productId);
  const images = groupBy(details.productImages, (r) => r.productId);
  const variants = groupBy(index.productVariants, (r) => r.productId);
  const prices = groupBy(details.variantPrices, (r) => r.variantId);
  const stock = new Map(details.inventoryLevels.map((r) => [r.variantId, r]));
  const bundleList = groupBy(details.bundles, (r) => r.productId);
  const bundleItems = groupBy(details.bundleItems, (r) => r.bundleId);
  const bundlePrices = groupBy(details.bundlePrices, (r) => r.bundleId);
  const skuOf = new Map(index.productVariants.map((v) => [v.id, v.sku]));
  const inMarketOrder = <T extends { marketId: string }>(list: T[]) =>
    list.filter((r) => currency.has(r.marketId)).sort((a, b) => marketOrder.get(a.marketId)! - marketOrder.get(b.marketId)!);

  return rows.map((p) => ({
    handle: p.handle,
    status: p.status,
    featuredPosition: p.featuredPosition,
    // only when set, so a catalog without them exports as it did
    ...(p.vendor !== null ? { vendor: p.vendor } : {}),
    ...(p.productType !== null ? { type: p.productType } : {}),
    ...(p.tags && p.tags.length > 0 ? { tags: [...p.tags] } : {}),
    texts: Object.fromEntries(
      byLocale(texts.get(p.id) ?? []).map((t) => [
        t.locale,
        {
          title: t.title,
          description: t.description,
          seoTitle: t.seoTitle,
          seoDescription: t.seoDescription,
          // stored in option order by the import, so the same texts give the same bytes
          ...(t.options ? { options: t.options } : {}),
        },
      ]),
    ),
    images: byPosition(images.get(p.id) ?? []).map((i) => ({
      url: i.url,
      alt: i.alt,
      ...(i.alts ? { alts: i.alts } : {}),
      width: i.width,
      height: i.height,
    })),
    options: p.options.map((o) => ({ name: o.name, values: [...o.values] })),
    variants: byPosition(variants.get(p.id) ?? []).map((v) => {
      const level = stock.get(v.id);
      return {
        sku: v.sku,
        title: v.title,
        options: v.options,
        prices: Object.fromEntries(
          inMarketOrder(prices.get(v.id) ?? []).map((r) => {
            const code = currency.get(r.marketId)!;
            return [
              r.marketId,
              {
                amount: toMoney(r.amount, code).amount,
                currency: code,
                compareAt: r.compareAtAmount === null ? null : toMoney(r.compareAtAmount, code).amount,
              },
            ];
          }),
        ),
        // A variant without a level row counts as sold out (see availability.ts).
        stock: level
          ? { quantity: level.quantity, policy: level.policy, lowStockThreshold: level.lowStockThreshold }
          : { quantity: 0, policy: 'deny' as const, lowStockThreshold: 5 },
      };
    }),
    bundles: byPosition(bundleList.get(p.id) ?? []).map((b) => ({
      title: b.title,
      ...(b.titles ? { titles: b.titles } : {}),
      items: byPosition(bundleItems.get(b.id) ?? []).map((i) => ({ sku: skuOf.get(i.variantId) ?? '', quantity: i.quantity })),
      prices: Object.fromEntries(
        inMarketOrder(bundlePrices.get(b.id) ?? []).map((r) => {
          const code = currency.get(r.marketId)!;
          return [r.marketId, { amount: toMoney(r.amount, code).amount, currency: code }];
        }),
      ),
    })),
  }));
}

function collectionsFromIndex(index: CatalogIndex): CatalogCollection[] {
  const handleOf = new Map(index.products.map((p) => [p.id, p.handle]));
  const collectionTexts = groupBy(index.collectionTranslations, (r) => r.collectionId);
  const members = groupBy(index.collectionProducts, (r) => r.collectionId);
  return index.collections.map((c) => ({
    handle: c.handle,
    status: c.status,
    image: c.imageUrl
      ? {
          url: c.imageUrl,
          alt: c.imageAlt ?? '',
          ...(c.imageAlts ? { alts: c.imageAlts } : {}),
          width: c.imageWidth ?? 1,
          height: c.imageHeight ?? 1,
        }
      : null,
    texts: Object.fromEntries(
      byLocale(collectionTexts.get(c.id) ?? []).map((t) => [t.locale, { title: t.title, description: t.description }]),
    ),
    // an automated collection's members are its rules' to say
    ...(c.rules
      ? { rules: { match: c.rules.match, conditions: [...c.rules.conditions] }, products: [] }
      : { products: byPosition(members.get(c.id) ?? []).map((m) => handleOf.get(m.productId) ?? '') }),
  }));
}

type Write = (chunk: string) => Promise<void> | void;

/**
 * Writes the Site's catalog as a document, reading and writing PRODUCT_SLICE products at a
 * time inside one read transaction (one consistent snapshot): memory holds a slice, not the
 * catalog. Two-space JSON, the same bytes `catalogDocumentText` gives for the whole document.
 */
export async function exportCatalogTo(
  database: Database,
  siteHandle: string,
  write: Write,
): Promise<{ products: number; collections: number }> {
  return readTransaction(database, async (tx: DbOrTx) => {
    const site = await loadTransferSite(tx, siteHandle);
    const index = await loadCatalogIndex(tx, site.id);
    const load = detailsLoader(tx);
    const out = documentWriter(write);
    await out.head(documentHead(site));
    await out.open('products', index.products.length);
    for (let start = 0; start < index.products.length; start += PRODUCT_SLICE) {
      const rows = index.products.slice(start, start + PRODUCT_SLICE);
      const ids = rows.map((r) => r.id);
      for (const product of productsFromRows(site, index, await load(ids, variantIdsOf(index, ids)), rows)) await out.item(product);
    }
    const collections = collectionsFromIndex(index);
    await out.open('collections', collections.length);
    for (const collection of collections) await out.item(collection);
    await out.end();
    return { products: index.products.length, collections: collections.length };
  });
}

/** The whole document in memory (tests, small catalogs). */
export async function exportCatalog(database: Database, siteHandle: string): Promise<CatalogDocument> {
  return readTransaction(database, async (tx: DbOrTx) => {
    const site = await loadTransferSite(tx, siteHandle);
    return documentFromState(site, await loadCatalogState(tx, site.id));
  });
}

function documentWriter(write: Write) {
  const indent = (json: string) => json.replace(/\n/g, '\n    ');
  let key: 'products' | 'collections' | null = null;
  let left = 0;
  const close = async () => {
    if (key) await write(`  ]${key === 'products' ? ',' : ''}\n`);
  };
  return {
    head: async (head: Omit<CatalogDocument, 'products' | 'collections'>) => {
      await write(
        `{\n  "format": ${JSON.stringify(head.format)},\n  "version": ${head.version},\n  "site": ${JSON.stringify(head.site)},\n`,
      );
      await write(`  "markets": ${JSON.stringify(head.markets, null, 2).replace(/\n/g, '\n  ')},\n`);
    },
    open: async (next: 'products' | 'collections', count: number) => {
      await close();
      if (count === 0) {
        await write(`  "${next}": []${next === 'products' ? ',' : ''}\n`);
        key = null;
        return;
      }
      await write(`  "${next}": [\n`);
      key = next;
      left = count;
    },
    item: async (value: unknown) => {
      left -= 1;
      await write(`    ${indent(JSON.stringify(value, null, 2))}${left > 0 ? ',' : ''}\n`);
    },
    end: async () => {
      await close();
      await write('}\n');
    },
  };
}

/** The file form of a whole document. */
export async function writeCatalogDocument(doc: CatalogDocument, write: Write): Promise<void> {
  const out = documentWriter(write);
  await out.head(doc);
  await out.open('products', doc.products.length);
  for (const p of doc.products) await out.item(p);
  await out.open('collections', doc.collections.length);
  for (const c of doc.collections) await out.item(c);
  await out.end();
}

export async function catalogDocumentText(doc: CatalogDocument): Promise<string> {
  const parts: string[] = [];
  await writeCatalogDocument(doc, (c) => void parts.push(c));
  return parts.join('');
}

/** Some stored products as documents (by product id), reading only their rows. */
export async function storedProducts(
  site: TransferSite,
  index: CatalogIndex,
  loadDetails: DetailsLoader,
  ids: Set<string>,
): Promise<CatalogProduct[]> {
  const rows = index.products.filter((p) => ids.has(p.id));
  const list = rows.map((r) => r.id);
  return productsFromRows(site, index, await loadDetails(list, variantIdsOf(index, list)), rows);
}
