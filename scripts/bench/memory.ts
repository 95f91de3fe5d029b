// npx tsx --conditions=react-server scripts/bench/memory.ts [--products=2000] [--rounds=2] [--variants=start,bare] [--port=3699] [--pages=300 (0: none)]
//
// Where the shop's peak RSS goes against the bare Next app's in the same scenario (issue #44
// point 5): each variant a fresh server on one seeded database (the benchmark's build,
// NEXT_DIST_DIR, else .next-bench), the same load on each — two passes of product reads over
// the catalog, then `--pages` product pages rendered on request (a language nothing rendered
// ahead; on the bare app as many of its /rendered/ pages) —
// and then its peak RSS (VmHWM), its mappings (processes.ts memoryMapMb) and its
// process.memoryUsage(). `bare` is the reference app (scripts/bench/reference-app, Next's
// defaults) on the reference routes of the same scenarios. Variants run in turn, round
// after round, so the host's drift falls on all of them. The bare app keeps the pages it
// renders (on disk too): from the second round on it serves them, so compare first rounds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeFixture } from './fixture';
import { pass } from './load';
import { memoryMapMb } from './processes';
import { buildReference, referenceMemoryMb, savePage, startReference } from './reference';
import { discover, planFor, referencePlan, SCENARIOS } from './scenarios';
import { liveMemoryMb, START_NODE_OPTIONS as START, startNextServer, type Memory, type Server } from './server';

const { values: flags } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '2' },
    variants: { type: 'string', default: 'start,bare' },
    port: { type: 'string', default: '3699' },
    pages: { type: 'string', default: '300' },
    'no-reference-build': { type: 'boolean', default: false },
  },
});

/** The shop's variants: V8 flags and settings. `bare` is the reference app. */
const VARIANTS: Record<string, { nodeOptions: string[]; env?: Record<string, string> }> = {
  start: { nodeOptions: START },
  defaults: { nodeOptions: [] },
  'no-grow': { nodeOptions: START.filter((f) => !f.startsWith('--heap-growing-percent')) },
  'semi-4': { nodeOptions: START.map((f) => (f.startsWith('--max-semi-space-size') ? '--max-semi-space-size=4' : f)) },
  'cap-192': { nodeOptions: START.map((f) => (f.startsWith('--max-old-space-size') ? '--max-old-space-size=192' : f)) },
  'page-cache-0': { nodeOptions: START, env: { PAGE_CACHE_MB: '0' } },
  'arena-1': { nodeOptions: START, env: { MALLOC_ARENA_MAX: '1' } },
  'mmap-64k': { nodeOptions: START, env: { MALLOC_MMAP_THRESHOLD_: '65536' } },
};

type Probe = { variant: string; peak: number; rss: number; map: ReturnType<typeof memoryMapMb>; usage: Memory | null; rps: number[] };

function status(pid: number): { hwm: number; rss: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { hwm: Math.round(kb('VmHWM') / 102.4) / 10, rss: Math.round(kb('VmRSS') / 102.4) / 10 };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sd-memory-'));
  const port = Number(flags.port);
  const pageCount = Number(flags.pages);
  try {
    if (!flags['no-reference-build']) await buildReference();
    const fixture = await makeFixture(dir, Number(flags.products), `http://127.0.0.1:${port}`, 2);
    const credential = fixture.credentials[0]!;
    const shop = (variant: string) =>
      startNextServer({
        label: `memory ${variant}`,
        port,
        databaseUrl: fixture.url,
        storefrontCredential: fixture.storefront,
        nodeOptions: VARIANTS[variant]!.nodeOptions,
        env: { STOREFRONT_ORIGIN: `http://127.0.0.1:${port}`, PAGE_RENDER_AHEAD: 'off', ...VARIANTS[variant]!.env },
      });
    // What the scenarios send, found on a server of its own (its caches then go with it).
    const first = await shop('start');
    const targets = await discover(first.base, fixture);
    await first.stop();
    const pageFile = savePage(dir, targets.pageHtml);
    const count = targets.allHandles.length;
    const probes: Probe[] = [];
    for (let round = 1; round <= Number(flags.rounds); round += 1) {
      for (const variant of flags.variants.split(',')) {
        const bare = variant === 'bare';
        const server: Server = bare ? await startReference(port + 1, pageFile) : await shop(variant);
        try {
          const on = { ...targets, base: server.base };
          const plan = (key: 'product_cold' | 'page_render') =>
            bare
              ? { base: server.base, connections: 32, next: referencePlan(SCENARIOS[key], on, credential) }
              : planFor(SCENARIOS[key], on, credential);
          const reads1 = await pass(plan('product_cold'), count, 300);
          const reads2 = await pass(plan('product_cold'), count, 300);
          const pages = pageCount > 0 ? await pass(plan('page_render'), pageCount, 600) : { rps: 0, errors: 0 };
          const pid = server.managed.pid;
          const { hwm, rss } = status(pid);
          const map = memoryMapMb(pid);
          const usage = bare ? await referenceMemoryMb(server) : await liveMemoryMb(server);
          const probe = { variant, peak: hwm, rss, map, usage, rps: [reads1.rps, reads2.rps, pages.rps] };
          probes.push(probe);
          console.log(JSON.stringify({ round, ...probe, errors: reads1.errors + reads2.errors + pages.errors }));
        } finally {
          await server.stop();
        }
      }
    }
    console.log('\nvariant        peak   RSS  anon  node  heap total/used  ext  ab   thr  reads1 reads2 pages/s');
    for (const p of probes) {
      console.log(
        `${p.variant.padEnd(13)} ${p.peak.toFixed(0).padStart(5)} ${p.rss.toFixed(0).padStart(5)} ${p.map.anonymous.toFixed(0).padStart(5)} ${p.map.node.toFixed(0).padStart(5)} ` +
          `${(p.usage ? `${p.usage.heapTotal.toFixed(0)}/${p.usage.heapUsed.toFixed(0)}` : '-').padStart(15)} ${(p.usage?.external ?? 0).toFixed(0).padStart(4)} ${(p.usage?.arrayBuffers ?? 0).toFixed(0).padStart(3)} ` +
          `${String(p.map.threads).padStart(4)} ${p.rps.map((r) => r.toFixed(0).padStart(6)).join(' ')}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
