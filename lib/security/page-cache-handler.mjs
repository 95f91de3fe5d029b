// Next's own page cache, in memory only (cacheMaxMemorySize), with two changes: it never
// writes pages to disk, where nothing would ever remove old catalog versions; and every
// cached HTML page carries a Content-Security-Policy made from the
// hashes of its own inline scripts and styles. The policy is stored in the entry's headers,
// which Next sends with the page both on the render that fills the cache and on every hit,
// so the HTML and its policy can never disagree. See docs/security-headers.md.
//
// Registered once at startup (instrumentation.ts), not as next.config's `cacheHandler`: Next
// imports a configured handler anew, with a dynamic import(), on every request it routes,
// API calls included (docs/performance.md).
import fileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js';
import { hashPolicy } from './content-security-policy.mjs';
import { nextsLatestIncrementalCache, registerNextCacheHandler } from '../process-state';

const FileSystemCache = fileSystemCache.default ?? fileSystemCache;
const HEADER = 'content-security-policy';

/** Where rendered pages go besides memory (registerPageCache's `onPage`), if anywhere. */
let onPage = null;
/** Which keys are only ever in memory (registerPageCache's `memoryOnly`), if any. */
let memoryOnly = null;

export default class PageCacheHandler extends FileSystemCache {
  constructor(ctx) {
    // What `experimental.isrFlushToDisk: false` did, without an experiment that Next's
    // start log lists with a "⨯", as if something had failed.
    super({ ...ctx, flushToDisk: false });
  }

  async get(key, ctx) {
    measureEntriesCheaply(nextsLatestIncrementalCache());
    // A page that is never on disk (not built, never flushed) misses here at once, where
    // Next would first look for its files: three failing reads (two of them blocking) a render.
    if (memoryOnly?.(key) && !FileSystemCache.memoryCache?.get(key)) return null;
    const entry = await super.get(key, ctx);
    // Pages prerendered at build time are read from disk without passing through set().
    if (entry) withPolicy(entry.value);
    return entry;
  }

  async set(key, data, ctx) {
    // The entry's headers object is the one Next answers the filling request with; the
    // policy must be in it before that answer goes out.
    withPolicy(data);
    await super.set(key, data, ctx);
    if (onPage && data?.kind === 'APP_PAGE' && (data.status ?? 200) === 200 && typeof data.html === 'string' && data.html) {
      onPage(key, data.html, data.headers[HEADER]);
    }
  }
}

/**
 * Next's IncrementalCache measures every entry with `JSON.stringify(entry).length` before it
 * hands it to this handler, though it compares the size with its limit only for fetch
 * entries. For a page that spells out the RSC payload's Buffer as an array of numbers and
 * escapes the HTML again: about a twentieth of a product page's render (HISTORY.md,
 * 2026-12-01). So each IncrementalCache class Next uses (one per bundle; route-module.js puts
 * every new instance in `globalThis.__incrementalCache`) gets a `set` that gives any other
 * entry a `toJSON` of its own while Next measures it, and takes it away again at once: the
 * measuring is synchronous, before Next's first await.
 */
const MEASURED_CHEAPLY = Symbol.for('site-delivery.entriesMeasuredCheaply');

export function measureEntriesCheaply(cache) {
  const proto = cache && typeof cache === 'object' ? Object.getPrototypeOf(cache) : null;
  if (!proto || Object.hasOwn(proto, MEASURED_CHEAPLY) || typeof proto.set !== 'function') return;
  Object.defineProperty(proto, MEASURED_CHEAPLY, { value: true });
  const set = proto.set;
  proto.set = function set_(key, data, ctx) {
    if (ctx?.fetchCache || !data || typeof data !== 'object' || Object.hasOwn(data, 'toJSON')) {
      return set.call(this, key, data, ctx);
    }
    Object.defineProperty(data, 'toJSON', { value: unmeasured, configurable: true, writable: true });
    try {
      return set.call(this, key, data, ctx);
    } finally {
      delete data.toJSON;
    }
  };
}

const unmeasured = () => 0;

function withPolicy(value) {
  if (value?.kind !== 'APP_PAGE' || typeof value.html !== 'string' || !value.html) return;
  value.headers ??= {};
  if (!value.headers[HEADER]) value.headers[HEADER] = hashPolicy(value.html);
}

/**
 * Makes this the page cache of every IncrementalCache Next creates in this process, through
 * the global slot Next reads when no `cacheHandler` is configured (the one its deployment
 * adapters fill). Other handlers already there (`use cache` ones) are kept. `options.onPage`
 * is handed every page rendered whole (status 200): its cache key, HTML and policy.
 * `options.memoryOnly(key)` names the keys of pages rendered on request alone, never on disk.
 */
export function registerPageCache(options = {}) {
  onPage = options.onPage ?? null;
  memoryOnly = options.memoryOnly ?? null;
  registerNextCacheHandler('FetchCache', PageCacheHandler);
}
