import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ProductFacets, ProductSummary } from '@/lib/contract/catalog';
import type { AvailabilityStatus, Image } from '@/lib/contract/common';
import type { ProductSort } from '@/lib/contract/operations/reads';
import { cacheable, versionKey } from '@/lib/platform/cache/memo';
import type { MarketChoice } from '../markets';
import { availabilityStatus, bestStatus } from '../availability';
import { toMoney } from '../money';
import { displayedVariantOptions, type OptionTexts } from './option-texts';
import { imageShowing, iso } from './product-loaders';

/**
 * The facts the products list filters, sorts and counts facets by, for one Site, catalog
 * version, market and locale, held in memory in compact arrays: every published product sold
 * in the market (in handle order), its title in the locale, lowest price, creation time and
 * search number, and each of its priced variants' amount, purchasability and displayed option
 * values (as interned ids).
 *
 * Why: filtering, sorting and counting facets in SQL meant reading every matching product and
 * variant for every request (1–3 s at 10,000 products, the event loop blocked throughout), and
 * a new `priceMax` made a new page-cache key each time. Over these arrays one request costs a
 * pass over the catalog's numbers (a few ms at 10,000 products) whatever its filters, and only
 * a catalog change (a new version) builds them again: in chunks of CHUNK products, the event
 * loop free between them, once however many requests ask.
 */
export type ListIndex = {
  size: number;
  ids: string[];
  handles: string[];
  titles: string[];
  createdAt: number[];
  /** Its last change (what a summary shows as updatedAt): a list page reads no product rows. */
  updatedAt: number[];
  /** The lowest variant price in the market (every product here has one). */
  minPrice: number[];
  byId: Map<string, number>;
  byHandle: Map<string, number>;
  /** The search index's number of a product (product_search_ids.seq) → position. */
  bySeq: Map<number, number>;
  /** Variants of product p are firstVariant[p] … firstVariant[p + 1] - 1. */
  firstVariant: Int32Array;
  /** Per variant: its id (a list answer names the variants a filter matched). */
  variantIds: string[];
  amount: Float64Array;
  /** The compare-at amount (NaN: none), the coarse availability (STATUSES) and the stored options (JSON) of each variant. */
  compareAt: Float64Array;
  status: Uint8Array;
  variantOptions: string[];
  purchasable: Uint8Array;
  /** Displayed option values of variant v are optionValue[firstOption[v] … firstOption[v + 1] - 1]. */
  firstOption: Int32Array;
  optionValue: Int32Array;
  /** Per value id: its option name's id and its text. */
  valueName: number[];
  valueText: string[];
  names: string[];
  valueIds: Map<string, number>;
  /** Positions in each order, made on first use. */
  orders: Partial<Record<ProductSort, Int32Array>>;
  locale: string;
};

/** Products read per statement while building (the event loop is free between them). */
const CHUNK = 500;
/** Indexes kept (a Site's markets × locales in use), least recently used out first. */
const MAX_INDEXES = 8;
/**
 * And at most this many products and variants in them together (~25 MB of heap; 10,000
 * products with 35,000 variants weigh 45,000): a catalog of 100,000 keeps one or two.
 */
const MAX_WEIGHT = 400_000;
const weight = (index: ListIndex) => index.size + index.amount.length;

const kept = new Map<string, ListIndex>();
const building = new Map<string, Promise<ListIndex>>();

/** The list index of the Site's catalog as of the request, in the market and locale. */
export async function listIndex(
  database: DbOrTx,
  site: { id: string; catalogVersion: number; defaultLocale: string },
  choice: MarketChoice,
): Promise<ListIndex> {
  // Inside a transaction the reads may see its own uncommitted writes: built for it alone.
  if (!cacheable(database)) return buildIndex(database, site, choice);
  const key = `${versionKey(database, site)}|${choice.market.id}|${choice.locale}`;
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  let running = building.get(key);
  if (!running) {
    running = buildIndex(database, site, choice).then((index) => {
      kept.set(key, index);
      let total = 0;
      for (const held of kept.values()) total += weight(held);
      while (kept.size > 1 && (kept.size > MAX_INDEXES || total > MAX_WEIGHT)) {
        const [oldest, held] = kept.entries().next().value!;
        kept.delete(oldest);
        total -= weight(held);
      }
      return index;
    });
    building.set(key, running);
    void running.then(
      () => building.delete(key),
      () => building.delete(key),
    );
  }
  return running;
}

/** For tests and the bench: forget every index (the next request builds its own). */
export function clearListIndexes(): void {
  kept.clear();
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

async function buildIndex(database: DbOrTx, site: { id: string; defaultLocale: string }, choice: MarketChoice): Promise<ListIndex> {
  const ids: string[] = [];
  const handles: string[] = [];
  const titles: string[] = [];
  const createdAt: number[] = [];
  const updatedAt: number[] = [];
  const minPrice: number[] = [];
  const byId = new Map<string, number>();
  const byHandle = new Map<string, number>();
  const bySeq = new Map<number, number>();
  const firstVariant: number[] = [];
  const variantIds: string[] = [];
  const amount: number[] = [];
  const compareAt: number[] = [];
  const status: number[] = [];
  const variantOptions: string[] = [];
  const purchasable: number[] = [];
  const firstOption: number[] = [];
  const optionValue: number[] = [];
  const valueName: number[] = [];
  const valueText: string[] = [];
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  const valueIds = new Map<string, number>();
  const byName = new Map<string, Map<string, number>>();
  const intern = (name: string, value: string): number => {
    let values = byName.get(name);
    if (!values) byName.set(name, (values = new Map()));
    let id = values.get(value);
    if (id === undefined) {
      let nameId = nameIds.get(name);
      if (nameId === undefined) nameIds.set(name, (nameId = names.push(name) - 1));
      values.set(value, (id = valueText.push(value) - 1));
      valueIds.set(`${name}\u0000${value}`, id);
      valueName.push(nameId);
    }
    return id;
  };

  let after = '';
  for (;;) {
    // The title and option texts as every other read shows them: the locale's row, else the default locale's.
    const rows = await database.all<{
      id: string;
      handle: string;
      created_at: number;
      updated_at: number;
      seq: number | null;
      title: string;
      texts: string | null;
    }>(sql`
      select p.id, p.handle, p.created_at, p.updated_at, i.seq, coalesce(tl.title, td.title, p.handle) as title,
        case when tl.product_id is not null then tl.options else td.options end as texts
      from products p
      left join product_translations tl on tl.product_id = p.id and tl.locale = ${choice.locale}
      left join product_translations td on td.product_id = p.id and td.locale = ${site.defaultLocale}
      left join product_search_ids i on i.product_id = p.id
      where p.site_id = ${site.id} and p.status = 'published' and p.handle > ${after}
      order by p.handle limit ${CHUNK}`);
    if (rows.length === 0) break;
    const lastHandle = rows.at(-1)!.handle;
    const variants = await database.all<{
      id: string;
      product_id: string;
      options: string;
      amount: number;
      compare_at_amount: number | null;
      quantity: number | null;
      low_stock_threshold: number;
      policy: 'deny' | 'continue' | 'preorder';
      purchasable: number;
    }>(sql`
      select v.id, v.product_id, v.options, vp.amount, vp.compare_at_amount, il.quantity, il.low_stock_threshold, il.policy,
        coalesce(il.policy <> 'deny' or il.quantity > 0, 0) as purchasable
      from products p
      inner join product_variants v on v.product_id = p.id
      inner join variant_prices vp on vp.variant_id = v.id and vp.market_id = ${choice.market.id}
      left join inventory_levels il on il.variant_id = v.id
      where p.site_id = ${site.id} and p.status = 'published' and p.handle > ${after} and p.handle <= ${lastHandle}
      order by v.product_id, v.position`);
    const ofProduct = new Map<string, typeof variants>();
    for (const v of variants) {
      const list = ofProduct.get(v.product_id);
      if (list) list.push(v);
      else ofProduct.set(v.product_id, [v]);
    }
    for (const row of rows) {
      const mine = ofProduct.get(row.id);
      if (!mine) continue; // not sold in this market: in no list there
      const texts = row.texts === null ? null : (JSON.parse(row.texts) as OptionTexts);
      const p = ids.push(row.id) - 1;
      handles.push(row.handle);
      titles.push(row.title);
      createdAt.push(row.created_at);
      updatedAt.push(row.updated_at);
      byId.set(row.id, p);
      byHandle.set(row.handle, p);
      if (row.seq !== null) bySeq.set(row.seq, p);
      firstVariant.push(amount.length);
      let min = Infinity;
      for (const v of mine) {
        variantIds.push(v.id);
        amount.push(v.amount);
        compareAt.push(v.compare_at_amount ?? NaN);
        const level = v.quantity === null ? null : { quantity: v.quantity, lowStockThreshold: v.low_stock_threshold, policy: v.policy };
        status.push(STATUSES.indexOf(availabilityStatus(level)));
        variantOptions.push(v.options);
        min = Math.min(min, v.amount);
        purchasable.push(v.purchasable === 1 ? 1 : 0);
        firstOption.push(optionValue.length);
        for (const [name, value] of Object.entries(displayedVariantOptions(JSON.parse(v.options) as Record<string, string>, texts)))
          optionValue.push(intern(name, value));
      }
      minPrice.push(min);
    }
    after = lastHandle;
    if (rows.length < CHUNK) break;
    await yieldToOthers();
  }
  firstVariant.push(amount.length);
  firstOption.push(optionValue.length);
  return {
    size: ids.length,
    ids,
    handles,
    titles,
    createdAt,
    updatedAt,
    minPrice,
    byId,
    byHandle,
    bySeq,
    firstVariant: Int32Array.from(firstVariant),
    variantIds,
    amount: Float64Array.from(amount),
    compareAt: Float64Array.from(compareAt),
    status: Uint8Array.from(status),
    variantOptions,
    purchasable: Uint8Array.from(purchasable),
    firstOption: Int32Array.from(firstOption),
    optionValue: Int32Array.from(optionValue),
    valueName,
    valueText,
    names,
    valueIds,
    orders: {},
    locale: choice.locale,
  };
}

const STATUSES: readonly AvailabilityStatus[] = ['in_stock', 'low_stock', 'out_of_stock', 'preorder'];

/**
 * Price range, the cheapest one's compare-at price and the best availability of some variants
 * (positions, at least one): what summarise (product-loaders.ts) answers from variant rows.
 */
function looksOf(index: ListIndex, variants: number[], currency: string) {
  let cheapest = variants[0]!;
  let dearest = variants[0]!;
  for (const v of variants) {
    if (index.amount[v]! < index.amount[cheapest]!) cheapest = v;
    if (index.amount[v]! > index.amount[dearest]!) dearest = v;
  }
  const compareAt = index.compareAt[cheapest]!;
  return {
    priceRange: { min: toMoney(index.amount[cheapest]!, currency), max: toMoney(index.amount[dearest]!, currency) },
    compareAtPrice: compareAt > index.amount[cheapest]! ? toMoney(compareAt, currency) : null,
    availability: bestStatus(variants.map((v) => STATUSES[index.status[v]!]!)),
  };
}

/**
 * The list view of the products at these positions, from the index alone but for their images
 * (`images`: each product's, in order): the same answer as summarise, without reading a product,
 * text or variant row. With a filter that looks at variants, each also gets `match`: the
 * variants that passed, their image, price range and availability.
 */
export function summariesFrom(
  index: ListIndex,
  positions: readonly number[],
  filter: IndexFilter | null,
  images: ReadonlyMap<string, Image[]>,
  currency: string,
): ProductSummary[] {
  const groups = filter ? masksOf(index, filter) : null;
  return positions.map((p) => {
    const id = index.ids[p]!;
    const all: number[] = [];
    for (let v = index.firstVariant[p]!, to = index.firstVariant[p + 1]!; v < to; v++) all.push(v);
    const summary: ProductSummary = {
      id,
      handle: index.handles[p]!,
      title: index.titles[p]!,
      featuredImage: images.get(id)?.[0] ?? null,
      ...looksOf(index, all, currency),
      updatedAt: iso(index.updatedAt[p]!),
    };
    const matched = filter && groups ? all.filter((v) => variantFailures(index, filter, groups, v) === 0) : [];
    if (matched.length > 0) {
      const own = images.get(id) ?? [];
      let image: Image | null = null;
      for (const v of matched)
        if ((image = imageShowing(own, Object.values(JSON.parse(index.variantOptions[v]!) as Record<string, string>)))) break;
      summary.match = { variantIds: matched.map((v) => index.variantIds[v]!), image, ...looksOf(index, matched, currency) };
    }
    return summary;
  });
}

/** Ties in every order go by handle. */
const byHandleOrder = (index: ListIndex) => (a: number, b: number) =>
  index.handles[a]! < index.handles[b]! ? -1 : index.handles[a]! > index.handles[b]! ? 1 : 0;

/** The title order's collation: the locale's, accents and case aside, numbers by value. */
export const titleCollator = (locale: string) => new Intl.Collator(locale, { sensitivity: 'base', numeric: true });

/** A sort's key of the product at a position (what a cursor holds). */
export function sortKey(index: ListIndex, sort: ProductSort, p: number): string | number | null {
  switch (sort) {
    case 'title-asc':
      return index.titles[p]!;
    case 'price-asc':
    case 'price-desc':
      return index.minPrice[p]!;
    case 'newest':
      return index.createdAt[p]!;
    case 'relevance':
      return null;
  }
}

/** Positions in the sort's order (relevance without a search: handle order, which the index is in). */
export function orderOf(index: ListIndex, sort: ProductSort): Int32Array {
  const made = index.orders[sort];
  if (made) return made;
  const positions = Array.from({ length: index.size }, (_, i) => i);
  const tie = byHandleOrder(index);
  if (sort === 'title-asc') {
    const collator = titleCollator(index.locale);
    positions.sort((a, b) => collator.compare(index.titles[a]!, index.titles[b]!) || tie(a, b));
  } else if (sort === 'price-asc') positions.sort((a, b) => index.minPrice[a]! - index.minPrice[b]! || tie(a, b));
  else if (sort === 'price-desc') positions.sort((a, b) => index.minPrice[b]! - index.minPrice[a]! || tie(a, b));
  else if (sort === 'newest') positions.sort((a, b) => index.createdAt[b]! - index.createdAt[a]! || tie(a, b));
  return (index.orders[sort] = Int32Array.from(positions));
}

/**
 * The narrowing filters over the index: which products are in scope (the search's matches, the
 * handles, variants and collection named; null: all) and the filters each variant is checked
 * against, each a bit, so a facet can be counted with every filter but its own.
 *
 * The filters hold for one variant together: a product passes when one of its variants is
 * purchasable, priced in the range and has a value of every option asked for. So a bag whose
 * black variant is sold out is not "in stock" under Color:Black because its beige one is.
 */
export type IndexFilter = {
  scope: Uint8Array | null;
  available: boolean;
  range?: { min: number; max: number };
  /** Per option filter: its name's id (-1: a name no product shows) and its value ids. */
  groups: { name: string; nameId: number; values: Set<number> }[];
};

const AVAILABLE_BIT = 1;
const PRICE_BIT = 2;
const groupBit = (g: number) => 4 << g;

/** Whether the filter looks at variants at all (without, every product in scope passes). */
export function filtersVariants(filter: IndexFilter): boolean {
  return filter.available || filter.range !== undefined || filter.groups.length > 0;
}

/**
 * The option filters as bits per value id: which groups a value meets, and all the groups.
 * Made once per filter (a Set lookup per option of every variant cost twice the time).
 */
type GroupMasks = { byValue: Int32Array; all: number };
const masks = new WeakMap<IndexFilter, GroupMasks>();

function masksOf(index: ListIndex, filter: IndexFilter): GroupMasks {
  let made = masks.get(filter);
  if (!made) {
    const byValue = new Int32Array(index.valueText.length);
    let all = 0;
    filter.groups.forEach((group, g) => {
      all |= groupBit(g);
      for (const value of group.values) byValue[value]! |= groupBit(g);
    });
    masks.set(filter, (made = { byValue, all }));
  }
  return made;
}

/** The filters the variant (a position in the index's variant arrays) fails, as bits (0: it passes all). */
function variantFailures(index: ListIndex, filter: IndexFilter, groups: GroupMasks, v: number): number {
  let failed = 0;
  if (filter.available && index.purchasable[v] !== 1) failed |= AVAILABLE_BIT;
  if (filter.range && (index.amount[v]! < filter.range.min || index.amount[v]! > filter.range.max)) failed |= PRICE_BIT;
  if (groups.all !== 0) {
    let met = 0;
    for (let o = index.firstOption[v]!, end = index.firstOption[v + 1]!; o < end; o++) met |= groups.byValue[index.optionValue[o]!]!;
    failed |= groups.all & ~met;
  }
  return failed;
}

/** Whether the product at a position is in scope and has a variant that passes every filter. */
export function passes(index: ListIndex, filter: IndexFilter, p: number): boolean {
  if (filter.scope !== null && filter.scope[p] !== 1) return false;
  if (!filtersVariants(filter)) return true;
  const groups = masksOf(index, filter);
  for (let v = index.firstVariant[p]!, to = index.firstVariant[p + 1]!; v < to; v++)
    if (variantFailures(index, filter, groups, v) === 0) return true;
  return false;
}

/**
 * The index as a variant-filtered list sorts it by price: each product's lowest price among the
 * variants that pass the filters, the price its card shows (ProductMatch), so a list under
 * Size:Large sorts by the large ones' prices. A copy for the request, with the price orders
 * made anew (the others are shared); the index itself is unchanged.
 */
export function pricedByMatches(index: ListIndex, filter: IndexFilter): ListIndex {
  const minPrice = index.minPrice.slice();
  const groups = masksOf(index, filter);
  for (let p = 0; p < index.size; p++) {
    if (filter.scope !== null && filter.scope[p] !== 1) continue;
    let min = Infinity;
    for (let v = index.firstVariant[p]!, to = index.firstVariant[p + 1]!; v < to; v++)
      if (variantFailures(index, filter, groups, v) === 0) min = Math.min(min, index.amount[v]!);
    if (min !== Infinity) minPrice[p] = min;
  }
  const orders = { ...index.orders };
  delete orders['price-asc'];
  delete orders['price-desc'];
  return { ...index, minPrice, orders };
}

/** The option filters by name (`Color` → [Sand, Sage]) as value ids of the index. */
export function optionGroupsOf(index: ListIndex, groups: Map<string, string[]>): IndexFilter['groups'] {
  return [...groups].map(([name, values]) => ({
    name,
    nameId: index.names.indexOf(name),
    values: new Set(values.map((value) => index.valueIds.get(`${name}\u0000${value}`)).filter((id): id is number => id !== undefined)),
  }));
}

/**
 * Facets over the products in scope, each counted with every filter but its own, by the
 * variants that pass the others: the option values (as the locale shows them), how many
 * products are available or not, and the price range. Under Color:Black a product counts as
 * available only when a black variant is, and the price range is the black variants'.
 */
export function facetsFrom(index: ListIndex, filter: IndexFilter, currency: string): ProductFacets {
  const values = index.valueText.length;
  const counts = new Int32Array(values);
  // The last product each value was counted on (+1), so a product counts a value once.
  const countedOn = new Int32Array(values);
  const nameSeen = new Uint8Array(index.names.length);
  const ownBit = new Int32Array(index.names.length);
  filter.groups.forEach((group, g) => {
    if (group.nameId >= 0) ownBit[group.nameId]! |= groupBit(g);
  });
  const groups = masksOf(index, filter);
  let available = 0;
  let unavailable = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let p = 0; p < index.size; p++) {
    if (filter.scope !== null && filter.scope[p] !== 1) continue;
    // Whether a variant passing every filter but availability exists, and whether one of them can be bought.
    let otherwise = false;
    let buyable = false;
    for (let v = index.firstVariant[p]!, to = index.firstVariant[p + 1]!; v < to; v++) {
      const failed = variantFailures(index, filter, groups, v);
      for (let o = index.firstOption[v]!, end = index.firstOption[v + 1]!; o < end; o++) {
        const value = index.optionValue[o]!;
        if (countedOn[value] === p + 1) continue;
        const name = index.valueName[value]!;
        nameSeen[name] = 1;
        if ((failed & ~ownBit[name]!) === 0) {
          countedOn[value] = p + 1;
          counts[value]! += 1;
        }
      }
      if ((failed & ~AVAILABLE_BIT) === 0) {
        otherwise = true;
        if (index.purchasable[v] === 1) buyable = true;
      }
      if ((failed & ~PRICE_BIT) === 0) {
        min = Math.min(min, index.amount[v]!);
        max = Math.max(max, index.amount[v]!);
      }
    }
    if (buyable) available++;
    else if (otherwise) unavailable++;
  }
  const collator = new Intl.Collator(index.locale, { numeric: true });
  const byName = new Map<number, { value: string; count: number }[]>();
  for (let value = 0; value < values; value++) {
    if (counts[value] === 0) continue;
    const name = index.valueName[value]!;
    const entry = { value: index.valueText[value]!, count: counts[value]! };
    const list = byName.get(name);
    if (list) list.push(entry);
    else byName.set(name, [entry]);
  }
  const options = index.names
    .map((name, id) => ({ name, id }))
    .filter(({ id }) => nameSeen[id] === 1)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, id }) => ({ name, values: (byName.get(id) ?? []).sort((a, b) => collator.compare(a.value, b.value)) }));
  return {
    options: options.filter((o) => o.values.length > 0),
    availability: { available, unavailable },
    price: min === Infinity ? null : { min: toMoney(min, currency), max: toMoney(max, currency) },
  };
}
