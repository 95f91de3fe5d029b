import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  bundleItems,
  bundlePrices,
  bundles,
  collectionProducts,
  collections,
  collectionTranslations,
  inventoryLevels,
  marketTranslations,
  productImages,
  products,
  productTranslations,
  productVariants,
  variantPrices,
} from '@/db/schema';
import type { CatalogCollection, CatalogMarket, CatalogProduct, OptionTexts } from '@/lib/contract/catalog-document';
import { newId } from '@/lib/platform/ids';
import { parseMinorUnits } from '../../money';
import { matchesRules, type CollectionRules, type RuleSubject } from '../collections';
import {
  groupBy,
  PRODUCT_SLICE,
  variantIdsOf,
  type CatalogIndex,
  type CatalogState,
  type DetailsLoader,
  type ProductDetails,
  type TransferSite,
} from './state';

type Row<T extends SQLiteTable> = T['$inferSelect'];

/** How a table's rows are told apart and which columns count as a change (timestamps do not). */
type TableSpec<T extends SQLiteTable> = { table: T; key: (keyof Row<T> & string)[]; compare: (keyof Row<T> & string)[] };

const spec = <T extends SQLiteTable>(table: T, key: (keyof Row<T> & string)[], compare: (keyof Row<T> & string)[]): TableSpec<T> => ({
  table,
  key,
  compare,
});

/** Parents before children: inserts run in this order, deletes in the reverse. */
export const TABLES = {
  products: spec(products, ['id'], ['handle', 'status', 'options', 'featuredPosition', 'vendor', 'productType', 'tags']),
  productVariants: spec(productVariants, ['id'], ['productId', 'sku', 'title', 'options', 'position']),
  productTranslations: spec(
    productTranslations,
    ['productId', 'locale'],
    ['title', 'description', 'seoTitle', 'seoDescription', 'options'],
  ),
  productImages: spec(productImages, ['productId', 'position'], ['url', 'alt', 'alts', 'width', 'height']),
  variantPrices: spec(variantPrices, ['variantId', 'marketId'], ['amount', 'compareAtAmount']),
  inventoryLevels: spec(inventoryLevels, ['variantId'], ['quantity', 'lowStockThreshold', 'policy']),
  bundles: spec(bundles, ['id'], ['title', 'titles', 'position']),
  bundleItems: spec(bundleItems, ['bundleId', 'position'], ['variantId', 'quantity']),
  bundlePrices: spec(bundlePrices, ['bundleId', 'marketId'], ['amount']),
  collections: spec(
    collections,
    ['id'],
    ['handle', 'status', 'position', 'imageUrl', 'imageAlt', 'imageAlts', 'imageWidth', 'imageHeight', 'rules'],
  ),
  collectionTranslations: spec(collectionTranslations, ['collectionId', 'locale'], ['title', 'description']),
  collectionProducts: spec(collectionProducts, ['collectionId', 'productId'], ['position']),
  marketTranslations: spec(marketTranslations, ['siteId', 'marketId', 'locale'], ['name']),
} as const;
export type TableName = keyof typeof TABLES;
export const TABLE_ORDER = Object.keys(TABLES) as TableName[];

type AnyRow = Record<string, unknown>;
export type TableChanges = { insert: AnyRow[]; update: AnyRow[]; delete: AnyRow[] };
export type CatalogChanges = Record<TableName, TableChanges>;

export type KindCounts = { created: number; updated: number; unchanged: number; unpublished: number; removed: number };
export type ImportPlan = {
  products: KindCounts;
  variants: KindCounts;
  collections: KindCounts;
  bundles: KindCounts;
  /** Plain sentences about what the import does beyond the counts. */
  notes: string[];
  /** Rows written, all tables together; 0 = the catalog (and its version) stays as it is. */
  rowWrites: number;
};

const counts = (): KindCounts => ({ created: 0, updated: 0, unchanged: 0, unpublished: 0, removed: 0 });
const keyOf = (row: AnyRow, key: readonly string[]) =>
  key.length === 1 ? String(row[key[0]!]) : key.map((k) => String(row[k])).join('\u0000');
const same = (a: AnyRow, b: AnyRow, columns: readonly string[]) =>
  columns.every((c) => JSON.stringify(a[c] ?? null) === JSON.stringify(b[c] ?? null));

/** Collects the rows that differ from what is stored; only those are ever written. */
class Diff {
  readonly changes = Object.fromEntries(TABLE_ORDER.map((t) => [t, { insert: [], update: [], delete: [] }])) as unknown as CatalogChanges;
  private readonly current = {} as Record<TableName, Map<string, AnyRow>>;

  constructor(index: CatalogIndex) {
    this.use(index);
  }

  /** The stored rows to compare with: the index once, then each slice's details in turn. */
  use(rows: Partial<CatalogState> | { marketTranslations: TransferSite['marketTranslations'] }): void {
    for (const t of TABLE_ORDER) {
      const list = (rows as Partial<Record<TableName, AnyRow[]>>)[t];
      if (list) this.current[t] = new Map(list.map((r) => [keyOf(r, TABLES[t].key), r]));
    }
  }

  stored(table: TableName, row: AnyRow): AnyRow | undefined {
    return this.current[table].get(keyOf(row, TABLES[table].key));
  }

  /** Records `row` as wanted; answers whether that changes anything. */
  put(table: TableName, row: AnyRow): 'created' | 'updated' | 'unchanged' {
    const stored = this.stored(table, row);
    if (!stored) {
      this.changes[table].insert.push(row);
      return 'created';
    }
    if (same(stored, row, TABLES[table].compare)) return 'unchanged';
    this.changes[table].update.push(row);
    return 'updated';
  }

  remove(table: TableName, row: AnyRow): void {
    this.changes[table].delete.push(row);
  }
}

/**
 * Texts by locale besides the main one (a bundle's titles, an image's alts) as stored: keys
 * sorted (an export gives the same bytes), null when there are none.
 */
export function storedByLocale(texts: Record<string, string> | undefined): Record<string, string> | null {
  const entries = Object.entries(texts ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/**
 * A locale's option texts as stored: in the product's option and value order (so an export
 * gives the same bytes for the same texts), names and values it does not translate left
 * out; null when it translates nothing. Texts of options the product lacks are dropped (the
 * document's are refused before this; a Shopify file's products keep what still applies).
 */
export function storedOptionTexts(
  texts: OptionTexts | null | undefined,
  options: { name: string; values: string[] }[],
): OptionTexts | null {
  if (!texts) return null;
  const out: OptionTexts = {};
  for (const o of options) {
    const t = texts[o.name];
    if (!t) continue;
    const values = Object.fromEntries(o.values.flatMap((v) => (t.values?.[v] === undefined ? [] : [[v, t.values[v]!]])));
    const entry = { ...(t.name === undefined ? {} : { name: t.name }), ...(Object.keys(values).length > 0 ? { values } : {}) };
    if (Object.keys(entry).length > 0) out[o.name] = entry;
  }
  return Object.keys(out).length > 0 ? out : null;
}

export type PlanInput = {
  site: TransferSite;
  index: CatalogIndex;
  loadDetails: DetailsLoader;
  products: CatalogProduct[];
  /** null: the input has no collections (a Shopify file), so every collection is left alone. */
  collections: CatalogCollection[] | null;
  /** The document's markets; a market with `names` gets exactly those (null or no `names`: left alone). */
  markets?: CatalogMarket[] | null;
  prune: boolean;
  /** Handles of stored products to delete for real, with every row of theirs. */
  remove?: ReadonlySet<string>;
  now: number;
};

/** removedVariantIds: variants dropped from a product the file keeps; deletedVariantIds: those of deleted products. */
export type PlanResult = { plan: ImportPlan; changes: CatalogChanges; removedVariantIds: string[]; deletedVariantIds: string[] };

/**
 * Compares the file with the stored catalog: the plan it prints and the rows it would write.
 * Products are compared PRODUCT_SLICE at a time, reading only their stored rows, so memory
 * holds the file, the index and one slice, never the whole stored catalog twice.
 */
export async function planImport({
  site,
  index,
  loadDetails,
  products: fileProducts,
  collections: fileCollections,
  markets: fileMarkets,
  prune,
  remove = new Set(),
  now,
}: PlanInput): Promise<PlanResult> {
  const diff = new Diff(index);
  const plan: ImportPlan = { products: counts(), variants: counts(), collections: counts(), bundles: counts(), notes: [], rowWrites: 0 };
  const currency = new Map(site.markets.map((m) => [m.id, m.currency]));
  const productByHandle = new Map(index.products.map((p) => [p.handle, p]));
  const variantBySku = new Map(index.productVariants.map((v) => [v.sku, v]));
  const variantsOf = groupBy(index.productVariants, (r) => r.productId);
  const amount = (value: string, market: string) => parseMinorUnits(value, currency.get(market)!)!;

  // Ids first, so bundles and collections can name products and variants of the file.
  const productIds = new Map<string, string>();
  const variantIds = new Map<string, string>();
  for (const p of fileProducts) {
    productIds.set(p.handle, productByHandle.get(p.handle)?.id ?? newId('prod'));
    for (const v of p.variants) variantIds.set(v.sku, variantBySku.get(v.sku)?.id ?? newId('var'));
  }
  const wantedSkus = new Set(variantIds.keys());
  const removedVariantIds: string[] = [];

  for (let start = 0; start < fileProducts.length; start += PRODUCT_SLICE) {
    const slice = fileProducts.slice(start, start + PRODUCT_SLICE);
    const storedIds = slice.flatMap((p) => productByHandle.get(p.handle)?.id ?? []);
    const movedIn = slice.flatMap((p) => p.variants.flatMap((v) => variantBySku.get(v.sku)?.id ?? []));
    const details = await loadDetails(storedIds, [...new Set([...variantIdsOf(index, storedIds), ...movedIn])]);
    diff.use(details);
    planProducts(slice, details);
  }

  function planProducts(slice: CatalogProduct[], details: ProductDetails) {
    const translationsOf = groupBy(details.productTranslations, (r) => r.productId);
    const imagesOf = groupBy(details.productImages, (r) => r.productId);
    const pricesOf = groupBy(details.variantPrices, (r) => r.variantId);
    const bundlesOf = groupBy(details.bundles, (r) => r.productId);
    const bundleItemsOf = groupBy(details.bundleItems, (r) => r.bundleId);
    const bundlePricesOf = groupBy(details.bundlePrices, (r) => r.bundleId);
    for (const p of slice) {
      const id = productIds.get(p.handle)!;
      const stored = productByHandle.get(p.handle);
      let touched = false;
      const note = (result: 'created' | 'updated' | 'unchanged') => {
        if (result !== 'unchanged') touched = true;
        return result;
      };

      for (const [locale, t] of Object.entries(p.texts)) {
        note(
          diff.put('productTranslations', {
            productId: id,
            locale,
            title: t.title,
            description: t.description,
            seoTitle: t.seoTitle ?? null,
            seoDescription: t.seoDescription ?? null,
            options: storedOptionTexts(t.options, p.options),
          }),
        );
      }
      for (const row of translationsOf.get(id) ?? []) {
        if (!(row.locale in p.texts)) {
          diff.remove('productTranslations', row);
          touched = true;
        }
      }
      p.images.forEach((image, i) =>
        note(
          diff.put('productImages', {
            productId: id,
            position: i + 1,
            url: image.url,
            alt: image.alt,
            alts: storedByLocale(image.alts),
            width: image.width,
            height: image.height,
          }),
        ),
      );
      for (const row of imagesOf.get(id) ?? []) {
        if (row.position > p.images.length) {
          diff.remove('productImages', row);
          touched = true;
        }
      }

      p.variants.forEach((v, j) => {
        const variantId = variantIds.get(v.sku)!;
        const results = [
          diff.put('productVariants', {
            id: variantId,
            siteId: site.id,
            productId: id,
            sku: v.sku,
            title: v.title,
            options: v.options,
            position: j + 1,
          }),
        ];
        for (const [market, price] of Object.entries(v.prices)) {
          results.push(
            diff.put('variantPrices', {
              variantId,
              marketId: market,
              amount: amount(price.amount, market),
              compareAtAmount: price.compareAt === null || price.compareAt === undefined ? null : amount(price.compareAt, market),
            }),
          );
        }
        let pricesRemoved = false;
        for (const row of pricesOf.get(variantId) ?? []) {
          if (!(row.marketId in v.prices)) {
            diff.remove('variantPrices', row);
            pricesRemoved = true;
          }
        }
        const storedLevel = diff.stored('inventoryLevels', { variantId });
        if (v.stock || !storedLevel) {
          const stock = v.stock ?? { quantity: 0, policy: 'deny' as const, lowStockThreshold: 5 };
          const level = { variantId, quantity: stock.quantity, lowStockThreshold: stock.lowStockThreshold, policy: stock.policy };
          results.push(
            diff.put('inventoryLevels', {
              ...level,
              updatedAt: storedLevel && same(storedLevel, level, TABLES.inventoryLevels.compare) ? storedLevel.updatedAt : now,
            }),
          );
        }
        const outcome =
          results[0] === 'created' ? 'created' : results.some((r) => r !== 'unchanged') || pricesRemoved ? 'updated' : 'unchanged';
        plan.variants[outcome] += 1;
        if (outcome !== 'unchanged') touched = true;
      });
      for (const row of variantsOf.get(id) ?? []) {
        if (!wantedSkus.has(row.sku)) {
          removedVariantIds.push(row.id);
          for (const price of pricesOf.get(row.id) ?? []) diff.remove('variantPrices', price);
          const level = diff.stored('inventoryLevels', { variantId: row.id });
          if (level) diff.remove('inventoryLevels', level);
          diff.remove('productVariants', row);
          plan.variants.removed += 1;
          touched = true;
        }
      }

      const storedBundles = bundlesOf.get(id) ?? [];
      p.bundles.forEach((b, j) => {
        const existing = storedBundles.find((s) => s.position === j + 1);
        const bundleId = existing?.id ?? newId('bun');
        const results = [
          diff.put('bundles', { id: bundleId, productId: id, title: b.title, titles: storedByLocale(b.titles), position: j + 1 }),
        ];
        b.items.forEach((item, k) =>
          results.push(
            diff.put('bundleItems', {
              bundleId,
              position: k + 1,
              variantId: variantIds.get(item.sku) ?? variantBySku.get(item.sku)!.id,
              quantity: item.quantity,
            }),
          ),
        );
        let removed = false;
        for (const row of bundleItemsOf.get(bundleId) ?? []) {
          if (row.position > b.items.length) {
            diff.remove('bundleItems', row);
            removed = true;
          }
        }
        for (const [market, price] of Object.entries(b.prices))
          results.push(diff.put('bundlePrices', { bundleId, marketId: market, amount: amount(price.amount, market) }));
        for (const row of bundlePricesOf.get(bundleId) ?? []) {
          if (!(row.marketId in b.prices)) {
            diff.remove('bundlePrices', row);
            removed = true;
          }
        }
        const outcome = results[0] === 'created' ? 'created' : removed || results.some((r) => r !== 'unchanged') ? 'updated' : 'unchanged';
        plan.bundles[outcome] += 1;
        if (outcome !== 'unchanged') touched = true;
      });
      for (const row of storedBundles) {
        if (row.position > p.bundles.length) {
          for (const item of bundleItemsOf.get(row.id) ?? []) diff.remove('bundleItems', item);
          for (const price of bundlePricesOf.get(row.id) ?? []) diff.remove('bundlePrices', price);
          diff.remove('bundles', row);
          plan.bundles.removed += 1;
          touched = true;
        }
      }

      const row = {
        id,
        siteId: site.id,
        handle: p.handle,
        status: p.status,
        options: p.options,
        featuredPosition: p.featuredPosition ?? null,
        vendor: p.vendor ?? null,
        productType: p.type ?? null,
        tags: p.tags && p.tags.length > 0 ? p.tags : null,
        createdAt: stored?.createdAt ?? now,
        updatedAt: stored?.updatedAt ?? now,
      };
      let result = diff.put('products', row);
      // The API shows a product's updatedAt: any change to its parts moves it.
      if (result === 'unchanged' && touched) {
        diff.changes.products.update.push(row);
        result = 'updated';
      }
      if (result !== 'created') row.updatedAt = result === 'updated' ? now : row.updatedAt;
      plan.products[result] += 1;
    }
  }

  // Deleted products: every row of theirs goes (collection memberships below), read a slice at a time.
  const deletedVariantIds: string[] = [];
  const removedIds = new Set(index.products.filter((p) => remove.has(p.handle)).map((p) => p.id));
  const removedList = [...removedIds];
  for (let start = 0; start < removedList.length; start += PRODUCT_SLICE) {
    const ids = removedList.slice(start, start + PRODUCT_SLICE);
    const details = await loadDetails(ids, variantIdsOf(index, ids));
    const pricesOf = groupBy(details.variantPrices, (r) => r.variantId);
    const levelOf = new Map(details.inventoryLevels.map((r) => [r.variantId, r]));
    const bundleItemsOf = groupBy(details.bundleItems, (r) => r.bundleId);
    const bundlePricesOf = groupBy(details.bundlePrices, (r) => r.bundleId);
    for (const row of details.productTranslations) diff.remove('productTranslations', row);
    for (const row of details.productImages) diff.remove('productImages', row);
    for (const id of ids) {
      for (const v of variantsOf.get(id) ?? []) {
        for (const price of pricesOf.get(v.id) ?? []) diff.remove('variantPrices', price);
        const level = levelOf.get(v.id);
        if (level) diff.remove('inventoryLevels', level);
        diff.remove('productVariants', v);
        deletedVariantIds.push(v.id);
        plan.variants.removed += 1;
      }
    }
    for (const b of details.bundles) {
      for (const item of bundleItemsOf.get(b.id) ?? []) diff.remove('bundleItems', item);
      for (const price of bundlePricesOf.get(b.id) ?? []) diff.remove('bundlePrices', price);
      diff.remove('bundles', b);
      plan.bundles.removed += 1;
    }
  }
  for (const stored of index.products) {
    if (!removedIds.has(stored.id)) continue;
    diff.remove('products', stored);
    plan.products.removed += 1;
  }

  const fileHandles = new Set(fileProducts.map((p) => p.handle));
  for (const stored of index.products) {
    if (fileHandles.has(stored.handle) || removedIds.has(stored.id)) continue;
    if (prune && stored.status === 'published') {
      diff.changes.products.update.push({ ...stored, status: 'archived', updatedAt: now });
      plan.products.unpublished += 1;
    } else {
      plan.products.unchanged += 1;
    }
  }

  if (fileMarkets) planMarketNames(diff, plan, site, fileMarkets);

  // Automated collections: their members are every product of the Site their rules match
  // (the file's products as the file has them), in handle order, set again by every import
  // so a product imported or changed later joins or leaves them.
  const subjects = new Map<string, RuleSubject & { id: string }>();
  for (const p of index.products)
    if (!removedIds.has(p.id)) subjects.set(p.handle, { id: p.id, vendor: p.vendor, type: p.productType, tags: p.tags ?? [] });
  for (const p of fileProducts)
    subjects.set(p.handle, { id: productIds.get(p.handle)!, vendor: p.vendor ?? null, type: p.type ?? null, tags: p.tags ?? [] });
  const handles = [...subjects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const matching = (rules: CollectionRules) => handles.filter((h) => matchesRules(subjects.get(h)!, rules));

  if (fileCollections) {
    const withMembers = fileCollections.map((c) => (c.rules ? { ...c, products: matching(c.rules) } : c));
    planCollections(diff, plan, { site, index, collections: withMembers, prune, now, productIds });
  } else if (remove.size === 0)
    plan.notes.push('The file has no collections: every collection is left as it is, automated ones but for their members.');
  const named = new Set((fileCollections ?? []).map((c) => c.handle));
  const membersOf = groupBy(index.collectionProducts, (r) => r.collectionId);
  for (const c of index.collections) {
    if (named.has(c.handle)) continue;
    const stored = [...(membersOf.get(c.id) ?? [])].sort((a, b) => a.position - b.position);
    // a hand-picked collection loses only the deleted products, the others keeping their order
    if (!c.rules && !stored.some((m) => removedIds.has(m.productId))) continue;
    const wanted = c.rules
      ? matching(c.rules).map((h) => subjects.get(h)!.id)
      : stored.map((m) => m.productId).filter((id) => !removedIds.has(id));
    if (!setMembers(diff, c.id, wanted, membersOf.get(c.id) ?? [])) continue;
    const pending = diff.changes.collections.update.find((row) => row.id === c.id);
    if (pending) pending.updatedAt = now;
    else {
      diff.changes.collections.update.push({ ...c, updatedAt: now });
      if (fileCollections) plan.collections.unchanged -= 1;
      plan.collections.updated += 1;
    }
  }

  for (const t of TABLE_ORDER) {
    const c = diff.changes[t];
    plan.rowWrites += c.insert.length + c.update.length + c.delete.length;
  }
  return { plan, changes: diff.changes, removedVariantIds, deletedVariantIds };
}

/** Market names: compared with the Site's as stored; a market in the file with `names` has exactly those. */
function planMarketNames(diff: Diff, plan: ImportPlan, site: TransferSite, fileMarkets: CatalogMarket[]) {
  diff.use({ marketTranslations: site.marketTranslations });
  let changed = 0;
  for (const m of fileMarkets) {
    if (!m.names) continue;
    for (const [locale, name] of Object.entries(m.names)) {
      if (diff.put('marketTranslations', { siteId: site.id, marketId: m.id, locale, name }) !== 'unchanged') changed += 1;
    }
    for (const row of site.marketTranslations) {
      if (row.marketId === m.id && !(row.locale in m.names)) {
        diff.remove('marketTranslations', row);
        changed += 1;
      }
    }
  }
  if (changed > 0) plan.notes.push(`${changed} market name(s) set or removed.`);
}

/**
 * A collection's members as `wanted` (product ids in order); true when that changed them.
 * Positions are unique per collection, so a changed membership is written whole.
 */
function setMembers(diff: Diff, collectionId: string, wanted: string[], stored: Row<typeof collectionProducts>[]): boolean {
  const storedMembers = [...stored].sort((a, b) => a.position - b.position);
  if (
    wanted.length === storedMembers.length &&
    wanted.every((pid, k) => storedMembers[k]!.productId === pid && storedMembers[k]!.position === k + 1)
  )
    return false;
  for (const row of storedMembers) diff.remove('collectionProducts', row);
  wanted.forEach((productId, k) => diff.changes.collectionProducts.insert.push({ collectionId, productId, position: k + 1 }));
  return true;
}

function planCollections(
  diff: Diff,
  plan: ImportPlan,
  {
    site,
    index: state,
    collections: fileCollections,
    prune,
    now,
    productIds,
  }: {
    site: TransferSite;
    index: CatalogIndex;
    collections: CatalogCollection[];
    prune: boolean;
    now: number;
    productIds: Map<string, string>;
  },
) {
  const byHandle = new Map(state.collections.map((c) => [c.handle, c]));
  const shopProductIds = new Map(state.products.map((p) => [p.handle, p.id]));
  const textsOf = groupBy(state.collectionTranslations, (r) => r.collectionId);
  const membersOf = groupBy(state.collectionProducts, (r) => r.collectionId);

  fileCollections.forEach((c, i) => {
    const stored = byHandle.get(c.handle);
    const id = stored?.id ?? newId('col');
    let touched = false;
    for (const [locale, t] of Object.entries(c.texts)) {
      if (diff.put('collectionTranslations', { collectionId: id, locale, title: t.title, description: t.description }) !== 'unchanged')
        touched = true;
    }
    for (const row of textsOf.get(id) ?? []) {
      if (!(row.locale in c.texts)) {
        diff.remove('collectionTranslations', row);
        touched = true;
      }
    }

    const wanted = c.products.map((handle) => productIds.get(handle) ?? shopProductIds.get(handle)!);
    if (setMembers(diff, id, wanted, membersOf.get(id) ?? [])) touched = true;

    const row = {
      id,
      siteId: site.id,
      handle: c.handle,
      status: c.status,
      position: i + 1,
      imageUrl: c.image?.url ?? null,
      imageAlt: c.image?.alt ?? null,
      imageAlts: storedByLocale(c.image?.alts),
      imageWidth: c.image?.width ?? null,
      imageHeight: c.image?.height ?? null,
      rules: c.rules ? { match: c.rules.match, conditions: c.rules.conditions } : null,
      updatedAt: stored?.updatedAt ?? now,
    };
    let result = diff.put('collections', row);
    if (result === 'unchanged' && touched) {
      diff.changes.collections.update.push(row);
      result = 'updated';
    }
    if (result === 'updated') row.updatedAt = now;
    plan.collections[result] += 1;
  });

  const fileHandles = new Set(fileCollections.map((c) => c.handle));
  for (const stored of state.collections) {
    if (fileHandles.has(stored.handle)) continue;
    if (prune && stored.status === 'published') {
      diff.changes.collections.update.push({ ...stored, status: 'draft', updatedAt: now });
      plan.collections.unpublished += 1;
    } else {
      plan.collections.unchanged += 1;
    }
  }
}
