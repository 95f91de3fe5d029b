import { measure, type RequestPlan } from './load';
import { checkoutPlan, signupRequest, type Targets } from './scenarios';
import { liveMemoryMb, type Memory, type Server } from './server';
import { rotate } from './load';

export type MixedResult = {
  seconds: number;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  status5xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** The run's first part, when caches fill and V8 sizes its heap: growth is counted after it. */
  settleSeconds: number;
  /** RSS (MB), the median of the samples in the 15 s before the settled mark, and in the run's last 15 s. */
  rssSettledMb: number;
  rssEndMb: number;
  /** (end − settled) ÷ settled, in %: the target is ≤ 5 (issue #44.5). */
  rssGrowthPct: number;
  rssPeakMb: number;
  /** The highest RSS after the settled mark. */
  rssPeakAfterSettleMb: number;
  /** RSS every SERIES_SECONDS from the start (MB). */
  rssSeries: number[];
  /** Live heap after a full GC at the settled mark and at the end: a leak shows here. */
  liveSettled: Memory | null;
  liveEnd: Memory | null;
};

/** How often the RSS series is written down (the sampler itself reads RSS every 250 ms). */
export const SERIES_SECONDS = 5;
/** Medians of RSS over this long, so one sample's jitter does not count as growth. */
const WINDOW_MS = 15_000;

const V1 = '/site/v1';

/**
 * Reads, signups and checkouts together at c=64: what a busy shop sends. Each request
 * picks its kind from a fixed weighted cycle (so runs are comparable) and a credential
 * from a small pool (so the per-credential budgets are those of several callers). RSS is
 * judged after the first minute (or the first half of a shorter run): it should stay flat.
 */
export async function mixedRun(
  server: Server,
  t: Targets,
  tokens: string[],
  seconds: number,
  log: (line: string) => void = () => {},
): Promise<MixedResult> {
  const settleSeconds = Math.min(60, seconds / 2);
  const product = rotate(t.allHandles.map((h) => `${V1}/commerce/products/${h}`));
  const list = rotate(t.listPaths);
  const collection = rotate(t.collectionPaths);
  const availability = rotate(t.availabilityPaths);
  const snapshot = rotate(t.snapshotPaths);
  const checkout = checkoutPlan(t);
  const kinds: (() => RequestPlan)[] = [
    () => ({ path: product() }),
    () => ({ path: product() }),
    () => ({ path: product() }),
    () => ({ path: product() }),
    () => ({ path: list() }),
    () => ({ path: collection() }),
    () => ({ path: availability() }),
    () => ({ path: availability() }),
    () => ({ path: snapshot() }),
    signupRequest,
    checkout,
  ];
  const kind = rotate(kinds);
  const token = rotate(tokens);
  const next = (): RequestPlan => {
    const r = kind()();
    return { ...r, headers: { ...r.headers, Authorization: `Bearer ${token()}` } };
  };
  // The live-heap probe forces a full GC, after which V8 gives memory back and then takes it
  // again under the load (~10 MB, over tens of seconds). So RSS is read as it was just before
  // each probe, at the settled mark and at the end: the one GC must not count as growth.
  let liveSettled: Memory | null = null;
  let rssSettled: number | null = null;
  const started = Date.now();
  const probe = setTimeout(() => {
    const at = Date.now();
    rssSettled = medianRss(server, at - WINDOW_MS, at);
    void liveMemoryMb(server).then((m) => (liveSettled = m));
  }, settleSeconds * 1000);
  // A line a minute, so a run that stops answering shows when, and how far it got.
  let before = 0;
  const heartbeat = ({ answered, errors, silentMs }: { answered: number; errors: number; silentMs: number }) => {
    log(
      `mixed: ${Math.round((Date.now() - started) / 1000)} s, ${answered} answers (${answered - before} in the last minute), ` +
        `${errors} errors, last ${(silentMs / 1000).toFixed(1)} s ago, RSS ${server.rss.nowMb()} MB`,
    );
    before = answered;
  };
  const result = await measure({ base: server.base, connections: 64, next, watch: { every: 60, heartbeat } }, seconds, 0);
  log('mixed: load finished; the live heap at the end …');
  clearTimeout(probe);
  const [from, to] = result.window;
  server.rss.nowMb();
  const rssEnd = medianRss(server, to - WINDOW_MS, to);
  const liveEnd = await liveMemoryMb(server);
  const settled = rssSettled ?? medianRss(server, from + (settleSeconds * 1000 - WINDOW_MS), from + settleSeconds * 1000);
  const series: number[] = [];
  for (let t = started; t <= to; t += SERIES_SECONDS * 1000) series.push(server.rss.atMb(t));
  return {
    seconds,
    connections: 64,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    status5xx: result.status5xx,
    errors: result.errors,
    statusCodes: result.statusCodes,
    settleSeconds,
    rssSettledMb: settled,
    rssEndMb: rssEnd,
    rssGrowthPct: settled > 0 ? Math.round(((rssEnd - settled) / settled) * 1000) / 10 : 0,
    rssPeakMb: server.rss.peakMb(from, to),
    rssPeakAfterSettleMb: server.rss.peakMb(from + settleSeconds * 1000, to),
    rssSeries: series,
    liveSettled,
    liveEnd,
  };
}

/** The median of a server's RSS samples over [from, to] (MB). */
function medianRss(server: Server, from: number, to: number): number {
  const kb = server.rss.samples
    .filter((s) => s.t >= from && s.t <= to)
    .map((s) => s.kb)
    .sort((a, b) => a - b);
  return kb.length === 0 ? server.rss.atMb(to) : Math.round(kb[kb.length >> 1]! / 102.4) / 10;
}
