// npx tsx scripts/bench/profile-kinds.ts <a.cpuprofile> [b.cpuprofile]
//
// A V8 CPU profile's busy main-thread time by kind of code (Next's page runtime, the app's
// own chunks, SQLite, GC, Node…), and with two profiles the difference between them, kind by
// kind: where one server's extra time goes against another's (render-cost.ts --profile sets
// the shop's product page against the bare rendered page this way). Idle samples are left out.
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string } };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

function kindOf({ functionName: fn, url }: Node['callFrame']): string | null {
  if (fn === '(idle)') return null;
  if (fn === '(garbage collector)') return 'GC';
  if (url.includes('app-page-turbo.runtime')) return "Next's page runtime (React's renderers, app render)";
  if (url.includes('/next/dist/')) return "Next's server outside the page runtime";
  if (url.includes('/libsql/') || url.includes('/@libsql/')) return 'SQLite (libsql, @libsql/client)';
  if (url.includes('/chunks/ssr/')) return "the page's bundle: app code, its libraries, Next's code bundled with it";
  if (url.includes('/chunks/')) return 'server bundle: proxy, cache handler, route handlers';
  if (url.startsWith('node:zlib')) return 'zlib (gzip)';
  if (url.startsWith('node:') || url === '') return 'Node internals and builtins';
  return 'other packages';
}

/**
 * Busy milliseconds by kind, with `window` (CLOCK_MONOTONIC µs, as process.hrtime gives and
 * V8 stamps its samples) keeping only the samples taken within it.
 */
export function timeByKind(file: string, window?: { fromUs: number; toUs: number }): { busyMs: number; byKind: Map<string, number> } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byKind = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const kind = kindOf(byId.get(id)!.callFrame);
    if (!kind) return;
    busy += dt;
    byKind.set(kind, (byKind.get(kind) ?? 0) + dt);
  });
  for (const [kind, us] of byKind) byKind.set(kind, us / 1000);
  return { busyMs: busy / 1000, byKind };
}

/**
 * Each kind's share of a profile's busy time scaled to `perItemMs` (e.g. a render's measured
 * CPU), side by side for two profiles, largest difference first.
 */
export function compareKinds(
  a: { label: string; file: string; perItemMs: number },
  b: { label: string; file: string; perItemMs: number },
  window?: { fromUs: number; toUs: number },
): string {
  const [ta, tb] = [timeByKind(a.file, window), timeByKind(b.file, window)];
  const share = (t: ReturnType<typeof timeByKind>, kind: string, scale: number) => ((t.byKind.get(kind) ?? 0) / t.busyMs) * scale;
  const rows = [...new Set([...ta.byKind.keys(), ...tb.byKind.keys()])]
    .map((kind) => ({ kind, a: share(ta, kind, a.perItemMs), b: share(tb, kind, b.perItemMs) }))
    .sort((x, y) => y.a - y.b - (x.a - x.b));
  const f = (n: number) => n.toFixed(1).padStart(6);
  return [
    `${a.label.padStart(6)} ${b.label.padStart(6)}   diff  ms of an item, by each kind's share of the main thread's busy samples`,
    ...rows.map((r) => `${f(r.a)} ${f(r.b)} ${f(r.a - r.b)}  ${r.kind}`),
    `${f(a.perItemMs)} ${f(b.perItemMs)} ${f(a.perItemMs - b.perItemMs)}  all`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('profile-kinds.ts')) {
  const [a, b] = process.argv.slice(2);
  if (!a) {
    console.error('usage: profile-kinds <a.cpuprofile> [b.cpuprofile]');
    process.exit(2);
  }
  if (b) {
    const [ta, tb] = [timeByKind(a), timeByKind(b)];
    console.log(compareKinds({ label: 'a', file: a, perItemMs: ta.busyMs }, { label: 'b', file: b, perItemMs: tb.busyMs }));
  } else {
    const t = timeByKind(a);
    for (const [kind, ms] of [...t.byKind].sort((x, y) => y[1] - x[1])) console.log(`${ms.toFixed(0).padStart(8)} ms  ${kind}`);
    console.log(`${t.busyMs.toFixed(0).padStart(8)} ms  busy`);
  }
}
