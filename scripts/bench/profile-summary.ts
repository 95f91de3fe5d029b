// npx tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top=30] [pattern...]
// Where a V8 CPU profile (node --cpu-prof, or `npm run bench -- --profile=<dir>`) spends
// its time: the top functions by self time, and the inclusive time of the functions
// whose name or file matches each pattern (e.g. authenticateCredential rate-limit zod).
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const [file, topArg, ...patterns] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary <file.cpuprofile> [top] [pattern...]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n: Node) => {
  const url = n.callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*?\/(\.next-[^/]+|\.next)\//, '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url.split('/').slice(-3).join('/')}:${n.callFrame.lineNumber + 1}`;
};

const selfByLabel = new Map<string, number>();
for (const [id, t] of self) {
  const key = label(byId.get(id)!);
  selfByLabel.set(key, (selfByLabel.get(key) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
console.log('\ntop self time:');
for (const [key, t] of [...selfByLabel].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 30))) console.log(`${pct(t)}  ${key}`);

if (patterns.length) {
  console.log('\ninclusive time (a sample counts once per pattern):');
  for (const pattern of patterns) {
    const re = new RegExp(pattern, 'i');
    let t = 0;
    for (const [id, dt] of self) {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        if (re.test(label(byId.get(cur)!))) {
          t += dt;
          break;
        }
      }
    }
    console.log(`${pct(t)}  ${pattern}`);
  }
}
