import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ProductFacets, ProductSummary } from '@/lib/contract/catalog';
import type { AvailabilityStatus, Image } from '@/lib/contract/common';
import type { ProductSort } from '@/lib/contract/operations/reads';
import { cacheable, siteKey } from '@/lib/platform/cache/memo';
import type { MarketChoice } from '../markets';
import { availabilityStatus, bestStatus } from '../availability';
import { toMoney } from '../money';
import { displayedVariantOptions, type OptionTexts } from './option-texts';
import { imageShowing, iso } from './product-loaders';

/**
 * The facts the products list filters, sorts and counts facets by, for one Site, market and
 * locale, held in memory in compact arrays: every published product sold in the market (in
 * handle order), its title in the locale, lowest price, creation time and search number, and
 * each of its priced variants' amount, purchasability and displayed option values (as
 * interned ids).
 *
 * Why: filtering, sorting and counting facets in SQL meant reading every matching product and
 * variant for every request (1–3 s at 10,000 products, the event loop blocked throughout), and
 * a new `priceMax` made a new page-cache key each time. Over these arrays one request costs a
 * pass over the catalog's numbers (a few ms at 10,000 products) whatever its filters. It is
 * built whole once (in chunks of CHUNK products, the event loop free between them); after a
 * catalog change only the products the change names (catalog_changes) are read again and
 * merged in, so a busy merchant or a stream of stock changes costs each request a few rows.
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
  /** The search index's number of each product (product_search_ids.seq; -1: none yet). */
  seqs: number[];
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
  /** Per value id: its option name's id and its text (values no product shows any more stay, uncounted). */
  valueName: number[];
  valueText: string[];
  names: string[];
  valueIds: Map<string, number>;
  /** Positions in each order, made on first use and carried over a merge. */
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
/**
 * Changed products merged into a kept index at most; beyond (an import), or after a change to
 * the whole Site (markets, locales), it is built again whole: reading each changed product
 * then costs more than a build's chunks.
 */
const MAX_MERGED = (size: number) => Math.max(500, size >> 2);

/** The newest index of each Site, market and locale, and the catalog version it holds every change up to. */
type Held = { version: number; index: ListIndex };
const kept = new Map<string, Held>();
const making = new Map<string, Promise<Held>>();

type IndexSite = { id: string; catalogVersion: number; defaultLocale: string };

/**
 * The list index of the Site's catalog as of the request (or newer), in the market and
 * locale. An index is never changed once made: an update makes a new one, sharing nothing
 * mutable, so a request still reading the old one is undisturbed.
 */
export async function listIndex(database: DbOrTx, site: IndexSite, choice: MarketChoice): Promise<ListIndex> {
  // Inside a transaction the reads may see its own uncommitted writes: built for it alone.
  if (!cacheable(database)) return buildIndex(database, site, choice);
  const slot = `${siteKey(database, site)}|${site.defaultLocale}|${choice.market.id}|${choice.locale}`;
  for (;;) {
    const held = kept.get(slot);
    // An index newer than the request's version serves it too: its version was read a moment ago.
    if (held && held.version >= site.catalogVersion) {
      kept.delete(slot);
      kept.set(slot, held);
      return held.index;
    }
    const running = making.get(slot);
    if (running) {
      // Another request is updating it; if its update is not new enough, go round again.
      const made = await running;
      if (made.version >= site.catalogVersion) return made.index;
      continue;
    }
    const update = updated(database, site, choice, held).then((made) => {
      keep(slot, made);
      return made;
    });
    making.set(slot, update);
    void update.then(
      () => making.delete(slot),
      () => making.delete(slot),
    );
    return (await update).index;
  }
}

function keep(slot: string, made: Held): void {
  kept.delete(slot);
  kept.set(slot, made);
  let total = 0;
  for (const held of kept.values()) total += weight(held.index);
  while (kept.size > 1 && (kept.size > MAX_INDEXES || total > MAX_WEIGHT)) {
    const [oldest, held] = kept.entries().next().value!;
    kept.delete(oldest);
    total -= weight(held.index);
  }
}

/** For tests and the bench: forget every index (the next request builds its own). */
export function clearListIndexes(): void {
  kept.clear();
}

/**
 * The index at the Site's version: the kept one with the products changed since merged in, or
 * (none kept, the whole Site changed, or too many products) a new one built whole.
 */
async function updated(database: DbOrTx, site: IndexSite, choice: MarketChoice, held: Held | undefined): Promise<Held> {
  const version = site.catalogVersion;
  if (held) {
    const handles = await changedProducts(database, site.id, held.version, MAX_MERGED(held.index.size));
    if (handles) return { version, index: await mergeChanges(database, site, choice, held.index, handles) };
  }
  return { version, index: await buildIndex(database, site, choice) };
}

/**
 * The handles of the products changed after a version (catalog_changes, which the triggers that
 * move the version fill), or null when the whole Site changed or more than `max` products did.
 * Every change up to a version read before this had committed by then, so nothing at or below
 * the request's version is missed; a later one read here is merged early, and again next time.
 */
async function changedProducts(database: DbOrTx, siteId: string, since: number, max: number): Promise<string[] | null> {
  const rows = await database.all<{ scope: string }>(
    sql`select scope from catalog_changes where site_id = ${siteId} and version > ${since} limit ${max + 1}`,
  );
  if (rows.length > max) return null;
  const handles: string[] = [];
  for (const { scope } of rows) {
    if (scope === 'site') return null;
    // A collection's own change (its title, its status) is not in the index; a change of its members names them.
    if (scope.startsWith('product:')) handles.push(scope.slice('product:'.length));
  }
  return handles;
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

type ProductRow = {
  id: string;
  handle: string;
  created_at: number;
  updated_at: number;
  seq: number | null;
  title: string;
  texts: string | null;
};
type VariantRow = {
  id: string;
  product_id: string;
  options: string;
  amount: number;
  compare_at_amount: number | null;
  quantity: number | null;
  low_stock_threshold: number;
  policy: 'deny' | 'continue' | 'preorder';
  purchasable: number;
};

/**
 * The published products `which` selects (a condition on products `p`), in handle order, and
 * their variants priced in the market, by product.
 */
async function readProducts(
  database: DbOrTx,
  site: { id: string; defaultLocale: string },
  choice: MarketChoice,
  which: SQL,
  limit?: number,
): Promise<{ rows: ProductRow[]; variants: Map<string, VariantRow[]> }> {
  // The title and option texts as every other read shows them: the locale's row, else the default locale's.
  const rows = await database.all<ProductRow>(sql`
    select p.id, p.handle, p.created_at, p.updated_at, i.seq, coalesce(tl.title, td.title, p.handle) as title,
      case when tl.product_id is not null then tl.options else td.options end as texts
    from products p
    left join product_translations tl on tl.product_id = p.id and tl.locale = ${choice.locale}
    left join product_translations td on td.product_id = p.id and td.locale = ${site.defaultLocale}
    left join product_search_ids i on i.product_id = p.id
    where p.site_id = ${site.id} and p.status = 'published' and ${which}
    order by p.handle ${limit === undefined ? sql`` : sql`limit ${limit}`}`);
  const variants = new Map<string, VariantRow[]>();
  if (rows.length === 0) return { rows, variants };
  const ids = JSON.stringify(rows.map((r) => r.id));
  const all = await database.all<VariantRow>(sql`
    select v.id, v.product_id, v.options, vp.amount, vp.compare_at_amount, il.quantity, il.low_stock_threshold, il.policy,
      coalesce(il.policy <> 'deny' or il.quantity > 0, 0) as purchasable
    from product_variants v
    inner join variant_prices vp on vp.variant_id = v.id and vp.market_id = ${choice.market.id}
    left join inventory_levels il on il.variant_id = v.id
    where v.product_id in (select value from json_each(${ids}))
    order by v.product_id, v.position`);
  for (const v of all) {
    const list = variants.get(v.product_id);
    if (list) list.push(v);
    else variants.set(v.product_id, [v]);
  }
  return { rows, variants };
}

async function buildIndex(database: DbOrTx, site: { id: string; defaultLocale: string }, choice: MarketChoice): Promise<ListIndex> {
  const builder = new IndexBuilder(null);
  let after = '';
  for (;;) {
    const { rows, variants } = await readProducts(database, site, choice, sql`p.handle > ${after}`, CHUNK);
    for (const row of rows) builder.add(row, variants.get(row.id));
    if (rows.length < CHUNK) break;
    after = rows.at(-1)!.handle;
    await yieldToOthers();
  }
  return builder.finish(choice.locale, {});
}

/**
 * The index with the products of these handles read again: each one gone, unpublished or no
 * longer sold in the market leaves, each one new or changed takes its place in handle order.
 * The rest is copied over as it is, and each order made is carried over with the changed
 * products put back in their places, not sorted again.
 */
async function mergeChanges(
  database: DbOrTx,
  site: { id: string; defaultLocale: string },
  choice: MarketChoice,
  index: ListIndex,
  handles: string[],
): Promise<ListIndex> {
  if (handles.length === 0) return index;
  const fresh: { rows: ProductRow[]; variants: Map<string, VariantRow[]> } = { rows: [], variants: new Map() };
  for (let i = 0; i < handles.length; i += CHUNK) {
    const part = await readProducts(
      database,
      site,
      choice,
      sql`p.handle in (select value from json_each(${JSON.stringify(handles.slice(i, i + CHUNK))}))`,
    );
    fresh.rows.push(...part.rows);
    for (const [id, list] of part.variants) fresh.variants.set(id, list);
  }
  const incoming = fresh.rows.filter((row) => fresh.variants.has(row.id));
  incoming.sort((a, b) => (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0));
  // Out: every product named (by its old handle, or by id when it was renamed).
  const leaving = new Uint8Array(index.size);
  for (const handle of handles) {
    const p = index.byHandle.get(handle);
    if (p !== undefined) leaving[p] = 1;
  }
  for (const row of fresh.rows) {
    const p = index.byId.get(row.id);
    if (p !== undefined) leaving[p] = 1;
  }
  const builder = new IndexBuilder(index);
  const moved = new Int32Array(index.size).fill(-1);
  const added: number[] = [];
  let next = 0;
  for (let p = 0; p < index.size; p++) {
    if (leaving[p] === 1) continue;
    while (next < incoming.length && incoming[next]!.handle < index.handles[p]!) {
      const row = incoming[next++]!;
      added.push(builder.add(row, fresh.variants.get(row.id)));
    }
    moved[p] = builder.copy(index, p);
  }
  while (next < incoming.length) {
    const row = incoming[next++]!;
    added.push(builder.add(row, fresh.variants.get(row.id)));
  }
  return builder.finish(choice.locale, index.orders, moved, added);
}

/** Makes an index product by product: read from rows, or copied from an index it started from (sharing its value ids). */
class IndexBuilder {
  private readonly ids: string[] = [];
  private readonly handles: string[] = [];
  private readonly titles: string[] = [];
  private readonly createdAt: number[] = [];
  private readonly updatedAt: number[] = [];
  private readonly minPrice: number[] = [];
  private readonly seqs: number[] = [];
  private readonly byId = new Map<string, number>();
  private readonly byHandle = new Map<string, number>();
  private readonly bySeq = new Map<number, number>();
  private readonly firstVariant: number[] = [];
  private readonly variantIds: string[] = [];
  private readonly amount: number[] = [];
  private readonly compareAt: number[] = [];
  private readonly status: number[] = [];
  private readonly variantOptions: string[] = [];
  private readonly purchasable: number[] = [];
  private readonly firstOption: number[] = [];
  private readonly optionValue: number[] = [];
  private readonly valueName: number[];
  private readonly valueText: string[];
  private readonly names: string[];
  private readonly valueIds: Map<string, number>;
  private readonly nameIds = new Map<string, number>();

  constructor(from: ListIndex | null) {
    // Copies, not the arrays themselves: the index it started from may still be read.
    this.valueName = from ? from.valueName.slice() : [];
    this.valueText = from ? from.valueText.slice() : [];
    this.names = from ? from.names.slice() : [];
    this.valueIds = from ? new Map(from.valueIds) : new Map();
    this.names.forEach((name, id) => this.nameIds.set(name, id));
  }

  private intern(name: string, value: string): number {
    const key = `${name}\u0000${value}`;
    let id = this.valueIds.get(key);
    if (id === undefined) {
      let nameId = this.nameIds.get(name);
      if (nameId === undefined) this.nameIds.set(name, (nameId = this.names.push(name) - 1));
      this.valueIds.set(key, (id = this.valueText.push(value) - 1));
      this.valueName.push(nameId);
    }
    return id;
  }

  private product(id: string, handle: string, title: string, createdAt: number, updatedAt: number, seq: number): number {
    const p = this.ids.push(id) - 1;
    this.handles.push(handle);
    this.titles.push(title);
    this.createdAt.push(createdAt);
    this.updatedAt.push(updatedAt);
    this.seqs.push(seq);
    this.byId.set(id, p);
    this.byHandle.set(handle, p);
    if (seq >= 0) this.bySeq.set(seq, p);
    this.firstVariant.push(this.amount.length);
    return p;
  }

  /** A product from its rows (none priced in the market: not added, -1). */
  add(row: ProductRow, variants: VariantRow[] | undefined): number {
    if (!variants) return -1; // not sold in this market: in no list there
    const texts = row.texts === null ? null : (JSON.parse(row.texts) as OptionTexts);
    const p = this.product(row.id, row.handle, row.title, row.created_at, row.updated_at, row.seq ?? -1);
    let min = Infinity;
    for (const v of variants) {
      this.variantIds.push(v.id);
      this.amount.push(v.amount);
      this.compareAt.push(v.compare_at_amount ?? NaN);
      const level = v.quantity === null ? null : { quantity: v.quantity, lowStockThreshold: v.low_stock_threshold, policy: v.policy };
      this.status.push(STATUSES.indexOf(availabilityStatus(level)));
      this.variantOptions.push(v.options);
      min = Math.min(min, v.amount);
      this.purchasable.push(v.purchasable === 1 ? 1 : 0);
      this.firstOption.push(this.optionValue.length);
      for (const [name, value] of Object.entries(displayedVariantOptions(JSON.parse(v.options) as Record<string, string>, texts)))
        this.optionValue.push(this.intern(name, value));
    }
    this.minPrice.push(min);
    return p;
  }

  /** The product at position p of the index this builder started from, as it is there. */
  copy(from: ListIndex, p: number): number {
    const q = this.product(from.ids[p]!, from.handles[p]!, from.titles[p]!, from.createdAt[p]!, from.updatedAt[p]!, from.seqs[p]!);
    this.minPrice.push(from.minPrice[p]!);
    for (let v = from.firstVariant[p]!, to = from.firstVariant[p + 1]!; v < to; v++) {
      this.variantIds.push(from.variantIds[v]!);
      this.amount.push(from.amount[v]!);
      this.compareAt.push(from.compareAt[v]!);
      this.status.push(from.status[v]!);
      this.variantOptions.push(from.variantOptions[v]!);
      this.purchasable.push(from.purchasable[v]!);
      this.firstOption.push(this.optionValue.length);
      for (let o = from.firstOption[v]!, end = from.firstOption[v + 1]!; o < end; o++) this.optionValue.push(from.optionValue[o]!);
    }
    return q;
  }

  /**
   * The index. With `moved` (old position → new, -1: gone) and `added` (new positions of the
   * products read again), the old index's orders are carried over: the survivors keep their
   * relative order, and each added product is put in its place by binary search.
   */
  finish(locale: string, orders: ListIndex['orders'], moved?: Int32Array, added: number[] = []): ListIndex {
    this.firstVariant.push(this.amount.length);
    this.firstOption.push(this.optionValue.length);
    const index: ListIndex = {
      size: this.ids.length,
      ids: this.ids,
      handles: this.handles,
      titles: this.titles,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      minPrice: this.minPrice,
      seqs: this.seqs,
      byId: this.byId,
      byHandle: this.byHandle,
      bySeq: this.bySeq,
      firstVariant: Int32Array.from(this.firstVariant),
      variantIds: this.variantIds,
      amount: Float64Array.from(this.amount),
      compareAt: Float64Array.from(this.compareAt),
      status: Uint8Array.from(this.status),
      variantOptions: this.variantOptions,
      purchasable: Uint8Array.from(this.purchasable),
      firstOption: Int32Array.from(this.firstOption),
      optionValue: Int32Array.from(this.optionValue),
      valueName: this.valueName,
      valueText: this.valueText,
      names: this.names,
      valueIds: this.valueIds,
      orders: {},
      locale,
    };
    if (moved) {
      const incoming = added.filter((p) => p >= 0);
      for (const [sort, order] of Object.entries(orders) as [ProductSort, Int32Array][])
        index.orders[sort] = carriedOver(index, sort, order, moved, incoming);
    }
    return index;
  }
}

/** An order of the old index in the new one's positions, with the added products in their places. */
function carriedOver(index: ListIndex, sort: ProductSort, order: Int32Array, moved: Int32Array, added: number[]): Int32Array {
  const before = orderComparison(index, sort);
  const survivors = new Int32Array(order.length);
  let n = 0;
  for (const p of order) if (moved[p]! >= 0) survivors[n++] = moved[p]!;
  const kept = survivors.subarray(0, n);
  // Each added product's place among the survivors (the first one after it); in order of place, then of the order.
  const places = added.map((p) => {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(kept[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    return { p, at: lo };
  });
  places.sort((a, b) => a.at - b.at || before(a.p, b.p));
  const result = new Int32Array(index.size);
  let r = 0;
  let k = 0;
  for (const { p, at } of places) {
    while (k < at) result[r++] = kept[k++]!;
    result[r++] = p;
  }
  while (k < kept.length) result[r++] = kept[k++]!;
  return result;
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

/** How two positions compare in a sort's order (ties by handle; relevance without a search: handle order). */
function orderComparison(index: ListIndex, sort: ProductSort): (a: number, b: number) => number {
  const tie = byHandleOrder(index);
  switch (sort) {
    case 'title-asc': {
      const collator = titleCollator(index.locale);
      return (a, b) => collator.compare(index.titles[a]!, index.titles[b]!) || tie(a, b);
    }
    case 'price-asc':
      return (a, b) => index.minPrice[a]! - index.minPrice[b]! || tie(a, b);
    case 'price-desc':
      return (a, b) => index.minPrice[b]! - index.minPrice[a]! || tie(a, b);
    case 'newest':
      return (a, b) => index.createdAt[b]! - index.createdAt[a]! || tie(a, b);
    case 'relevance':
      return tie;
  }
}

/** Positions in the sort's order (relevance without a search: handle order, which the index is in). */
export function orderOf(index: ListIndex, sort: ProductSort): Int32Array {
  const made = index.orders[sort];
  if (made) return made;
  const positions = Array.from({ length: index.size }, (_, i) => i);
  if (sort !== 'relevance') positions.sort(orderComparison(index, sort));
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
