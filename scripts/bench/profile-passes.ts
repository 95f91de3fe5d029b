// npx tsx scripts/bench/profile-passes.ts <file.cpuprofile> <segment A>:<requests> <segment B>:<requests> [top=40] [--inclusive]
//
// Where one kind of pass costs more than another, from one server's CPU profile: the profile
// is cut into busy segments at idle stretches of ≥ 0.5 s (pass-cpu.ts --profile pauses 1 s
// between its passes: segment 1 is start-up, 2 and 3 the first pass's halves, 4 the second
// pass, 5 the third, 6 and 7 the
// warmed-up misses and hits of another market), each function's self time (or, with --inclusive, time on the stack) is
// divided by the segment's requests, and the functions are listed by how many µs a request
// more they take in A than in B. E.g. `… 3:1023 5:2046`: a miss (the first pass's second half)
// against a hit (the third pass). Sampled wall-clock time of the main thread, not CPU: on a
// busy host a sample can fall while the thread waits for a core.
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const args = process.argv.slice(2);
const inclusive = args.includes('--inclusive');
const [file, a, b, topArg] = args.filter((x) => !x.startsWith('--'));
if (!file || !a || !b) {
  console.error('usage: profile-passes <file.cpuprofile> <segment>:<requests> <segment>:<requests> [top] [--inclusive]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));

const label = (n: Node) => {
  const url = n.callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*?\/(\.next-[^/]+|\.next)\//, '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
};

// Busy segments: runs of samples separated by ≥ 0.5 s of idle samples.
const GAP_US = 500_000;
const segments: { samples: number[]; deltas: number[] }[] = [];
let current: { samples: number[]; deltas: number[] } | null = null;
let idleRun = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  if (idle.has(id)) {
    idleRun += dt;
    if (idleRun >= GAP_US) current = null;
    return;
  }
  idleRun = 0;
  if (!current) segments.push((current = { samples: [], deltas: [] }));
  current.samples.push(id);
  current.deltas.push(dt);
});
console.log(
  `${segments.length} busy segments: ${segments.map((s, i) => `${i + 1}: ${(s.deltas.reduce((x, y) => x + y, 0) / 1000).toFixed(0)} ms`).join(', ')}`,
);

function perRequest(spec: string): { total: number; by: Map<string, number> } {
  const [index, requests] = spec.split(':').map(Number) as [number, number];
  const segment = segments[index - 1];
  if (!segment || !requests) throw new Error(`no segment ${spec}`);
  const by = new Map<string, number>();
  let total = 0;
  segment.samples.forEach((id, i) => {
    const dt = segment.deltas[i]! / requests;
    total += dt;
    if (!inclusive) {
      const key = label(byId.get(id)!);
      by.set(key, (by.get(key) ?? 0) + dt);
      return;
    }
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur)!);
      if (seen.has(key)) continue;
      seen.add(key);
      by.set(key, (by.get(key) ?? 0) + dt);
    }
  });
  return { total, by };
}

const A = perRequest(a);
const B = perRequest(b);
console.log(`µs a request: ${a} ${A.total.toFixed(0)}, ${b} ${B.total.toFixed(0)}, difference ${(A.total - B.total).toFixed(0)}`);
const keys = new Set([...A.by.keys(), ...B.by.keys()]);
const rows = [...keys].map((k) => ({ k, a: A.by.get(k) ?? 0, b: B.by.get(k) ?? 0 })).sort((x, y) => y.a - y.b - (x.a - x.b));
console.log(`\n${inclusive ? 'inclusive' : 'self'} µs a request, by difference (A − B):`);
for (const r of rows.slice(0, Number(topArg ?? 40)))
  console.log(`${(r.a - r.b).toFixed(1).padStart(8)} ${r.a.toFixed(1).padStart(8)} ${r.b.toFixed(1).padStart(8)}  ${r.k}`);
