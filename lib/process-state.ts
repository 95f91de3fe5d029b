/**
 * The state this process keeps once, whatever bundle asks for it.
 *
 * Next builds the proxy, the API's routes, the pages and instrumentation as separate
 * bundles, each with its own copy of every module it imports; a module-level `new Map()`
 * would be one map per bundle. What must be one per process lives in a named slot here, on
 * `globalThis` under a registered symbol, and nowhere else: ESLint refuses `globalThis` in
 * every other file of the app.
 */
export const PROCESS_SLOTS = {
  database: 'the database client (lib/db.ts): one set of connections per instance',
  sqliteWriteQueues:
    'the write queue per local database file (db/driver/local-client.ts): every client of a file in this process writes through one queue',
  sqliteCheckpointers: 'the checkpoint worker per local database file (db/driver/checkpointer.ts), shared by every client of that file',
  storageFaults: 'which storage faults were reported when (db/faults.ts), so each is logged once, not once per bundle',
  databaseLog: "where db/ writes its log lines (db/log.ts): the server's logger, wired once at start (lib/server/start.ts)",
  jobTimers: "the background jobs' timers (lib/jobs/timers.ts), started once by instrumentation and stopped on shutdown",
  seenCatalogVersions:
    'the newest catalog version seen per Site (lib/platform/cache/seen-versions.ts): requests note it, background jobs read it',
  catalogChanges:
    "what each Site's catalog changes touched, per scope (lib/platform/cache/catalog-changes.ts): every route checks its kept answers against it",
  messagesQueued: 'how many messages this process queued (lib/commerce/signups/outbox.ts): routes count, the outbox drain reads',
  rateLimitLeases: "the rate limiter's leases on budgets in the database (lib/platform/rate-limit/http.ts), shared by every route",
  shopperTurns: "each shopper's place in line for list reads (lib/platform/rate-limit/turns.ts)",
  peerStamp:
    "the secret the server guard stamps each request's peer address with (lib/shopper-address.ts): written by the guard, checked by the routes",
  limitedShoppers: 'shoppers the API refused for their read budget (lib/site-client/shopper-limits.ts): pages note them, the proxy reads',
  siteApiHealth: 'whether the API answers (lib/site-client/health.ts): pages note failures, the proxy reads',
  pageReadLogs: 'the API reads each kept page was made from (lib/storefront/page-reads.ts): pages write, the page store reads',
  siteClientReadLog:
    'how the API client finds the read log of the render it runs in (lib/site-client/reads.ts), set once by the storefront',
  siteClientRenderScope:
    'how the API client finds the render it runs in, whose in-process calls share one credential check (lib/site-client/in-process.ts), set once by the storefront',
  paymentProvider:
    'the payment provider and its Stripe client (lib/payments.ts): one client per process, made again only when its settings change',
  logger: 'the one pino logger (lib/platform/observability/logger.ts), writing to stdout synchronously',
  metrics:
    'the Prometheus registry and the caches counted into it (lib/platform/observability/metrics.ts): every route and job records into one registry',
  tracing: 'whether spans are made (lib/platform/observability/tracing.ts), decided once from the OTLP settings',
  siteClientTracing: 'whether the API client makes a span per call (lib/site-client/trace.ts), decided once from the OTLP settings',
  siteClientShopper:
    'how the API client finds the shopper of the request it runs in (lib/site-client/config.ts), set once by the storefront',
} as const;

export type ProcessSlot = keyof typeof PROCESS_SLOTS;

type Store = Record<symbol, unknown>;

/** The process's value in `slot`, made by `create` the first time any bundle asks. */
export function processSlot<T>(slot: ProcessSlot, create: () => T): T {
  const store = globalThis as unknown as Store;
  const key = Symbol.for(`site-delivery.${slot}`);
  if (!(key in store)) store[key] = create();
  return store[key] as T;
}

/**
 * Next's own registry of cache handlers, which its IncrementalCache reads when next.config
 * names no `cacheHandler` (the slot its deployment adapters fill): `register` adds a handler
 * and keeps those already there.
 */
export function registerNextCacheHandler(kind: 'FetchCache', handler: unknown): void {
  const store = globalThis as unknown as Store;
  const key = Symbol.for('@next/cache-handlers');
  store[key] = { ...(store[key] as object | undefined), [kind]: handler };
}

/**
 * The IncrementalCache Next made last: route-module.js keeps each one it makes for a request
 * in `globalThis.__incrementalCache` before it reads or writes anything through it.
 */
export function nextsLatestIncrementalCache(): unknown {
  return (globalThis as unknown as { __incrementalCache?: unknown }).__incrementalCache;
}

/** V8's collector, where node was started with --expose-gc (the benchmark's server), else null. */
export function exposedGc(): (() => void) | null {
  const gc = (globalThis as unknown as { gc?: () => void }).gc;
  return typeof gc === 'function' ? gc : null;
}
