import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSlot } from '@/lib/process-state';

/**
 * The process's metrics, in Prometheus' text format at GET /metrics (app/metrics/route.ts),
 * which answers only when METRICS_TOKEN is set. Recording is cheap (a counter, a bucket),
 * and off entirely when that variable is unset: `recording()` is then false and nothing is
 * counted.
 *
 * One registry per process, however many bundled copies of this module there are (prom-client
 * itself stays outside the bundles: next.config.mjs serverExternalPackages).
 */
type Metrics = {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  duration: Histogram<'route' | 'method' | 'status'>;
  cacheLookups: Counter<'cache' | 'result'>;
  outboxDepth: Gauge;
  outboxOldestAge: Gauge;
  rateLimited: Counter<'policy'>;
  databaseUnavailable: Counter<'fault'>;
};

/** A source of cache hits and misses, counted by the cache itself and read at each scrape. */
export type CountedCache = { readonly name: string; hits: number; misses: number };
/** What the outbox holds: read from the database when /metrics is asked. */
export type OutboxGauge = () => Promise<{ depth: number; oldestAgeSeconds: number }>;

const holder = processSlot<{ metrics?: Metrics; countedCaches?: Set<CountedCache>; on?: boolean }>('metrics', () => ({}));

/** Are metrics recorded in this process (METRICS_TOKEN is set)? */
// Validated with the other settings (lib/env.ts); read here directly, so that the caches,
// which scripts and tests import too, do not need the server's settings.
export function recording(): boolean {
  return (holder.on ??= Boolean(process.env.METRICS_TOKEN));
}

/** Caches register themselves (lib/platform/cache/memo.ts); their counts are read at scrape time. */
export function countCache(cache: CountedCache): void {
  (holder.countedCaches ??= new Set()).add(cache);
}

function metrics(): Metrics {
  if (holder.metrics) return holder.metrics;
  const registry = new Registry();
  // Memory, CPU, event-loop delay, handles: what an operator looks at first.
  collectDefaultMetrics({ register: registry, prefix: 'site_' });
  const labels = ['route', 'method', 'status'] as const;
  const made: Metrics = {
    registry,
    requests: new Counter({
      name: 'site_http_requests_total',
      help: 'API requests answered, by route template, method and status.',
      labelNames: labels,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'site_http_request_duration_seconds',
      help: 'Time from a request reaching the API wrapper to its answer, by route template, method and status.',
      labelNames: labels,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'site_cache_lookups_total',
      help: 'Lookups in the in-process caches, by cache and result (hit or miss).',
      labelNames: ['cache', 'result'],
      registers: [registry],
      collect() {
        // The caches' own tallies are the totals (they only grow): set, not added.
        this.reset();
        for (const cache of holder.countedCaches ?? []) {
          this.inc({ cache: cache.name, result: 'hit' }, cache.hits);
          this.inc({ cache: cache.name, result: 'miss' }, cache.misses);
        }
      },
    }),
    outboxDepth: new Gauge({
      name: 'site_outbox_depth',
      help: 'Messages waiting in the outbox to be sent (pending).',
      registers: [registry],
    }),
    outboxOldestAge: new Gauge({
      name: 'site_outbox_oldest_age_seconds',
      help: 'Age of the oldest message waiting in the outbox (0 when none waits).',
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'site_rate_limit_refusals_total',
      help: 'Requests refused 429 by a rate limit, by the policy that refused them.',
      labelNames: ['policy'],
      registers: [registry],
    }),
    databaseUnavailable: new Counter({
      name: 'site_database_unavailable_total',
      help: 'API answers 503 because of the database, by fault: busy (a lock held past the busy timeout), unreachable (a remote server timed out or is down), and the rest.',
      labelNames: ['fault'],
      registers: [registry],
    }),
  };
  // Series an alert watches exist from the start, at 0, rather than appearing with the first event.
  for (const policy of ['reads', 'writes', 'shopper-reads', 'shopper-writes']) made.rateLimited.inc({ policy }, 0);
  for (const fault of ['busy', 'unreachable']) made.databaseUnavailable.inc({ fault }, 0);
  return (holder.metrics = made);
}

/** One API request answered: `route` is its template (`/site/v1/commerce/products/{handle}`), never the raw path. */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  if (!recording()) return;
  const m = metrics();
  const labels = { route, method, status: String(status) };
  m.requests.inc(labels);
  m.duration.observe(labels, seconds);
}

export function recordRateLimited(policy: string): void {
  if (recording()) metrics().rateLimited.inc({ policy });
}

export function recordDatabaseUnavailable(fault: string): void {
  if (recording()) metrics().databaseUnavailable.inc({ fault });
}

/** The text for GET /metrics, with the outbox read now. */
export async function metricsText(outbox: OutboxGauge): Promise<{ text: string; contentType: string }> {
  const m = metrics();
  try {
    const { depth, oldestAgeSeconds } = await outbox();
    m.outboxDepth.set(depth);
    m.outboxOldestAge.set(oldestAgeSeconds);
  } catch {
    // The database is down: the other metrics still answer (and say how often it failed).
  }
  return { text: await m.registry.metrics(), contentType: m.registry.contentType };
}
