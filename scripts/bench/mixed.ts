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
  /** RSS just before the live-heap probe at the 10th second, and just before the one at the end. */
  rssAt10sMb: number;
  rssEndMb: number;
  rssPeakMb: number;
  /**
   * Growth of RSS from the 10th second to the end, MB per minute (least squares); it
   * includes what V8 takes back after the 10-second probe's full GC.
   */
  rssSlopeMbPerMin: number;
  /** Live heap after a full GC at the 10th second and at the end: a leak shows here. */
  liveAt10s: Memory | null;
  liveEnd: Memory | null;
};

const V1 = '/site/v1';

/**
 * Reads, signups and checkouts together at c=64: what a busy shop sends. Each request
 * picks its kind from a fixed weighted cycle (so runs are comparable) and a credential
 * from a small pool (so the per-credential budgets are those of several callers).
 */
export async function mixedRun(server: Server, t: Targets, tokens: string[], seconds: number): Promise<MixedResult> {
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
  // again under the load (~10 MB, over tens of seconds). So RSS is compared as it was just
  // before each probe, at 10 s and at the end: the one GC must not count as growth.
  let liveAt10s: Memory | null = null;
  let rssAt10s: number | null = null;
  const probe = setTimeout(() => {
    rssAt10s = server.rss.nowMb();
    void liveMemoryMb(server).then((m) => (liveAt10s = m));
  }, 10_000);
  const result = await measure({ base: server.base, connections: 64, next }, seconds, 0);
  clearTimeout(probe);
  const rssEnd = server.rss.nowMb();
  const liveEnd = await liveMemoryMb(server);
  const [from, to] = result.window;
  const after10 = server.rss.samples.filter((s) => s.t >= from + 10_000 && s.t <= to);
  return {
    seconds,
    connections: 64,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    status5xx: result.status5xx,
    errors: result.errors,
    statusCodes: result.statusCodes,
    rssAt10sMb: rssAt10s ?? server.rss.atMb(from + 10_000),
    rssEndMb: rssEnd,
    rssPeakMb: server.rss.peakMb(from, to),
    rssSlopeMbPerMin: slope(after10.map((s) => [(s.t - from) / 60_000, s.kb / 1024] as const)),
    liveAt10s,
    liveEnd,
  };
}

function slope(points: (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : Math.round((num / den) * 10) / 10;
}
