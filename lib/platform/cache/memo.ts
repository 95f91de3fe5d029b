import { SQLiteTransaction } from 'drizzle-orm/sqlite-core';
import { baseDatabase, type DbOrTx } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { countCache } from '@/lib/platform/observability/metrics';
import type { Scoped } from './catalog-changes';

/**
 * Per-process caches of catalog reads, keyed by the Site and its catalog version.
 *
 * Why this is correct across instances: every request reads its Site row — with the
 * catalog version — fresh from the database together with its credential (one indexed
 * read), and database triggers bump that version on every change to anything a catalog
 * read shows (products, variants, prices, stock, images, texts, bundles, collections,
 * markets, the Site's own settings). A key that carries the version therefore stops
 * matching the moment a change commits, whichever instance made it; the entry is never
 * served again and ages out. An entry may hold data newer than its key (a change that
 * committed while it was being read), never older.
 *
 * Bounded by entries and by an estimate of bytes, least recently used out first, so
 * memory stays flat however many products, Sites or versions pass through.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly pending = new Map<string, Promise<V>>();
  private bytes = 0;
  /** Lookups answered and not, for GET /metrics (a named cache's; see countCache). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    /** Heap bytes per byte of the value's JSON (see estimateBytes): it depends on the values' shape. */
    private readonly heapPerJsonByte = 8,
    /** Named: its hits and misses are in GET /metrics (site_cache_lookups_total{cache}). */
    readonly name?: string,
  ) {
    if (name) countCache(this as { name: string; hits: number; misses: number });
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The value kept under `key`, if there is one and it still `holds`: a hit; else undefined,
   * a miss. Each lookup counts once, so a caller that misses here goes on with `fill`.
   */
  get(key: string, holds?: (value: V) => boolean): V | undefined {
    const hit = this.entries.get(key);
    if (!hit || (holds && !holds(hit.value))) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // re-insert: Map order is the recency order
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, bytes: number): void {
    if (bytes > this.maxBytes / 4) return; // one huge answer must not flush everything else
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  /**
   * The cached value, or `compute()` once however many requests ask at the same time.
   * Failures (e.g. NotFound) are not cached.
   */
  async through(
    key: string,
    compute: () => Promise<V>,
    weigh?: (value: V) => number,
    /** Whether a kept value still holds (per-scope freshness: catalog-changes.ts); a stale one is read again. */
    holds?: (value: V) => boolean,
  ): Promise<V> {
    const hit = this.get(key, holds);
    return hit !== undefined ? hit : this.fill(key, compute, weigh, holds);
  }

  /** After a lookup that missed (`get`): `compute()` once however many requests ask at the same time, and keep it. */
  async fill(
    key: string,
    compute: () => Promise<V>,
    weigh: (value: V) => number = (value) => estimateBytes(value, this.heapPerJsonByte),
    holds: (value: V) => boolean = () => true,
  ): Promise<V> {
    const running = this.pending.get(key);
    if (running) {
      // A read started before a change this request already sees is no answer for it.
      const value = await running;
      if (holds(value)) return value;
    }
    const promise = compute().then((value) => {
      this.set(key, deepFreeze(value), weigh(value));
      return value;
    });
    this.pending.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/**
 * Per-id answers (a variant's status, its checkout line) per key that carries the catalog
 * version: a request asks for the ids it needs, reads only those not seen at this version,
 * and stores what it read — `null` for an id that does not exist, so it is not asked again.
 * Bounded: the most recent `maxKeys` keys, and a key that holds more than `maxIdsPerKey`
 * ids starts again empty.
 */
export class VersionedMemo<V> {
  private readonly keys = new Map<string, Map<string, V | null>>();

  constructor(
    private readonly maxKeys: number,
    private readonly maxIdsPerKey: number,
  ) {}

  at(key: string): Map<string, V | null> {
    let memo = this.keys.get(key);
    if (memo) {
      // re-insert: Map order is the recency order
      this.keys.delete(key);
      if (memo.size > this.maxIdsPerKey) memo.clear();
    } else {
      memo = new Map();
      if (this.keys.size >= this.maxKeys) this.keys.delete(this.keys.keys().next().value!);
    }
    this.keys.set(key, memo);
    return memo;
  }

  /** What `ids` have at `key`: each id read once per key (`read` answers the missing ones). */
  async many(key: string, ids: readonly string[], read: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const memo = this.at(key);
    const missing = ids.filter((id) => !memo.has(id));
    if (missing.length > 0) {
      const found = await read(missing);
      for (const id of missing) memo.set(id, found.get(id) ?? null);
    }
    const out = new Map<string, V>();
    for (const id of ids) {
      const value = memo.get(id);
      if (value != null) out.set(id, value);
    }
    return out;
  }
}

/**
 * Rough heap footprint of a JSON-like value: its JSON length times V8's overhead for its
 * objects and strings, which depends on their shape: many small objects (a product) take
 * several times their JSON, a list page about twice, plus the serialised answer the route
 * keeps beside it (lib/api/route.ts). docs/operating.md#memory has the measurements.
 */
export function estimateBytes(value: unknown, heapPerJsonByte = 8): number {
  return JSON.stringify(value).length * heapPerJsonByte;
}

/** Cached values are shared by every request: make accidental mutation fail loudly. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Only reads on the database itself go through the caches: inside a transaction a read
 * may see that transaction's own uncommitted writes, which must never be shared.
 */
export function cacheable(database: DbOrTx): boolean {
  // By shape as well as by class (a write transaction's `tx` has no client of its own): a
  // bundle may hold two copies of Drizzle's classes, and then instanceof says no.
  return !(database instanceof SQLiteTransaction) && '$client' in database;
}

// A process normally has one database, but tests (and tools) open several with the same
// seeded Site ids and versions: the database is part of every key.
const databases = new WeakMap<object, number>();
let databaseCount = 0;

function databaseKey(of: DbOrTx): number {
  // A read transaction's handle reads its database: the same entries.
  const database = baseDatabase(of);
  let id = databases.get(database);
  if (id === undefined) {
    id = ++databaseCount;
    databases.set(database, id);
  }
  return id;
}

/** The database and Site part of a key whose entries are checked per scope (catalog-changes.ts) rather than keyed by version. */
export function siteKey(database: DbOrTx, site: Pick<SiteContext['site'], 'id'>): string {
  return `${databaseKey(database)}:${site.id}`;
}

/** The version part of every key: a change to the Site's catalog makes a new key. */
export function versionKey(database: DbOrTx, site: Pick<SiteContext['site'], 'id' | 'catalogVersion'>): string {
  return `${databaseKey(database)}:${site.id}@${site.catalogVersion}`;
}

const MB = 1024 * 1024;

/**
 * An answer as it is sent: its exact text and its ETag, and, for an answer kept per scope,
 * the catalog version it was read at and what it shows (catalog-changes.ts).
 */
export type Answer = { readonly text: string; readonly etag: string } & Partial<Scoped>;

/**
 * Answers kept as their bytes (lib/api/reply.ts, okKept): products by handle, the read
 * shoppers spread over the whole catalog. An answer weighs its text plus its key and entry
 * (~300 bytes), so a whole catalog fits where its parsed objects, several times their
 * JSON, held only the hot few thousand.
 */
export const answerCache = new BoundedCache<Answer>(40_000, 48 * MB, 8, 'answers');

/** An answer's heap: V8 keeps a text with no character past U+00FF at one byte a character. */
export function answerWeight(answer: Answer): number {
  const scopes = answer.scopes?.reduce((sum, scope) => sum + scope.length + 16, 0) ?? 0;
  return answer.text.length * (/[^\u0000-\u00ff]/.test(answer.text) ? 2 : 1) + answer.etag.length + scopes + 300;
}
/**
 * Pages (product lists and searches, the catalog, collections, the snapshot): up to 1,000
 * entries / ~16 MB of heap, so every page of a 10,000-product list (~420 pages of ~9 KB)
 * stays: a list read rotating over more pages than the cache holds misses every time (LRU).
 */
export const pageCache = new BoundedCache<unknown>(1000, 16 * MB, 3, 'pages');
/**
 * A search's matching products (their search numbers) per catalog version, locale and words:
 * what a search sorted by price or title, or counted into facets, reads from the index, the
 * same however the request filters (a new priceMax each time reads nothing more).
 */
export const searchMatchCache = new BoundedCache<unknown>(200, 8 * MB, 8, 'search-matches');
