// npm run bench [-- --quick] [--no-build] [--only=product,list] [--skip-1k] [--skip-mixed] [--skip-catalog-import] [--profile=<dir>]
//                 [--server-node-options="--max-old-space-size=256"]   (the default; "" for none)
//
// Seeds fresh 10k- and 1k-product databases, builds and starts the production server,
// drives each operation with autocannon on loopback, and prints a table, the targets,
// and last one JSON line ({"bench": {...}}). Every server it starts is stopped on exit.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeFixture, type Fixture } from './fixture';
import { measure, measureInterleaved, sequentialLatency } from './load';
import { mixedRun, type MixedResult } from './mixed';
import { runToCompletion, stopAll } from './processes';
import { jsonLine, printTable, type Row } from './report';
import { discover, planFor, SCENARIOS, type ScenarioKey, type Targets } from './scenarios';
import { buildEnv, DIST_DIR, liveMemoryMb, ROOT, SERVER_MALLOC_ARENA_MAX, startFloorServer, startNextServer, type Memory, type Server } from './server';

const PORTS = { big: 3601, small: 3602, floor: 3603 } as const;
const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    'skip-1k': { type: 'boolean', default: false },
    'skip-mixed': { type: 'boolean', default: false },
    'skip-catalog-import': { type: 'boolean', default: false },
    profile: { type: 'string' },
    products: { type: 'string', default: '10000' },
    // The heap cap we recommend for production (README, Performance): without it V8 on a
    // machine with plenty of RAM keeps ~300 MB of garbage around under load.
    'server-node-options': { type: 'string', default: '--max-old-space-size=256' },
  },
});
// Warm-up and measured window of a continuous run: 2 s of warm-up, where a scenario that
// needs more names its own (warmFor), and 6 s measured, ~3,000 answers at ~500 req/s, 30 of
// them beyond the p99. The ratios come from the alternating slices anyway.
const WARM = flags.quick ? 1 : 2;
const SECONDS = flags.quick ? 3 : 6;
const MIXED_SECONDS = flags.quick ? 15 : 60;
const BIG = Number(flags.products);
const SMALL = 1000;

// Measured on the big catalog, in this order: ceiling first and again near the end
// (the mean is the reference), writes last so the reads see the seeded catalog.
const BIG_ORDER: ScenarioKey[] = [
  'ceiling', 'ceiling_c1', 'product_c1', 'product', 'list', 'collection', 'availability', 'snapshot',
  'static', 'page', 'product_cold', 'checkout', 'ceiling_post',
];
/** Compared by ratio with a reference: measured in slices alternating with it (measureInterleaved). */
const PAIRED: Partial<Record<ScenarioKey, ScenarioKey>> = {
  product: 'ceiling', list: 'ceiling', collection: 'ceiling', availability: 'ceiling', snapshot: 'ceiling', page: 'static',
};
/**
 * Informative, not targets: the ceiling handler sent what the operation is sent, in alternating
 * slices — availability's 2.5 KB query string, and product's paths behind a dynamic segment
 * (what Next itself spends on matching a dynamic route and building its params).
 */
const SAME_REQUEST: Partial<Record<ScenarioKey, ScenarioKey>> = { availability: 'ceiling_batch', product: 'ceiling_dynamic' };
/** Slices per operation and their length: pages answer in ~1 s at c=32, so theirs are longer. */
// Three short slices for the API (the median of three shrugs off one disturbed slice).
const slicing = (key: ScenarioKey) => (key === 'page' ? { n: 2, seconds: flags.quick ? 3 : 4 } : { n: 3, seconds: flags.quick ? 1.5 : 2 });
const SLICE_SECONDS = flags.quick ? 1.5 : 2;
const SMALL_ORDER: ScenarioKey[] = ['product', 'list', 'collection', 'availability', 'snapshot', 'page'];
const only = flags.only ? new Set(flags.only.split(',')) : null;
const SERVER_NODE_OPTIONS = (flags['server-node-options'] ?? '').split(/\s+/).filter(Boolean);
const API: ReadonlySet<ScenarioKey> = new Set(['product', 'product_c1', 'product_cold', 'list', 'collection', 'availability', 'snapshot', 'checkout']);

/** A scenario's unmeasured warm-up: its own when it names one (checkout, page, product at c=1), else the default. */
const warmFor = (key: ScenarioKey) => (flags.quick ? WARM : (SCENARIOS[key].warmSeconds ?? WARM));

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function runScenario(
  server: Server, targets: Targets, key: ScenarioKey, token: string,
  seconds = SECONDS, warm = warmFor(key),
): Promise<Row | null> {
  const scenario = SCENARIOS[key];
  if ((key === 'page' && !targets.storefrontPage) || (key === 'static' && !targets.staticPage)) {
    log(`skip ${key}: the page is not there (answered non-200)`);
    return null;
  }
  const plan = planFor(scenario, targets, API.has(key) ? token : null);
  const result = scenario.connections === 1 ? await sequentialLatency(plan, seconds, warm) : await measure(plan, seconds, warm);
  const row: Row = { ...result, key, peakRssMb: server.rss.peakMb(...result.window) };
  log(`${key}: ${row.rps} req/s p50 ${row.p50} p99 ${row.p99} errors ${row.errors} rss ${row.peakRssMb} MB ${JSON.stringify(row.statusCodes)}`);
  return row;
}

/**
 * An operation paired with its reference. `continuous`: its req/s and latencies from one
 * continuous run before the slices (the figures of the 10k table, product's p99 target
 * among them); without it they are pooled from the slices themselves, whose p99 includes
 * each slice's start (the 1k reads, where only the ratio counts: growth). The 1k storefront
 * page keeps its continuous run: on a fresh server its first slice after the warm-up alone
 * measured 0.11× and 0.35× the static page, the next 0.56× (filling Next's page cache).
 */
async function interleaved(server: Server, targets: Targets, key: ScenarioKey, reference: ScenarioKey, credential: string, continuous = true) {
  if ((key === 'page' && !targets.storefrontPage) || (reference === 'static' && !targets.staticPage)) {
    log(`skip ${key}: the page (or its reference) is not there (answered non-200)`);
    return null;
  }
  const plan = planFor(SCENARIOS[key], targets, API.has(key) ? credential : null);
  const referencePlan = planFor(SCENARIOS[reference], targets, null);
  const run = continuous ? await measure(plan, SECONDS, warmFor(key)) : null;
  const { n, seconds } = slicing(key);
  // the continuous run warmed the operation up; without it the slices warm up first
  const m = await measureInterleaved(plan, referencePlan, n, seconds, run ? 0 : warmFor(key));
  const figures = run ?? m.operation;
  const row: Row = {
    ...figures, key, peakRssMb: server.rss.peakMb(figures.window[0], m.operation.window[1]),
    reference: { key: reference, rps: m.ceiling.rps, p99: m.ceiling.p99, ratios: m.ratios, medianRatio: m.medianRatio },
  };
  log(`${key}: ${row.rps} req/s p50 ${row.p50} p99 ${row.p99} errors ${row.errors + m.operation.errors} rss ${row.peakRssMb} MB; ` +
    `alternating with ${reference} (${m.ceiling.rps} req/s): slice ratios ${m.ratios.join(' ')} → ${m.medianRatio}`);
  row.errors += m.operation.errors;
  return row;
}

async function main(): Promise<void> {
  const started = Date.now();
  const load = [loadavg()];
  const dir = mkdtempSync(join(tmpdir(), 'site-bench-'));
  // also on Ctrl-C, which exits from the signal handler without unwinding
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  log(`load average ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} cores; data in ${dir}`);
  const rows = new Map<ScenarioKey, Row>();
  const rows1k = new Map<ScenarioKey, Row>();
  let floor: Row | undefined;
  let mixed: MixedResult | undefined;
  let ceilingRps = 0;
  let ceilingP99 = 0;
  let productBytes = 0;
  let liveAfterReads: Memory | null = null;
  let ceilingRuns: number[] = [];
  let big: Fixture | undefined;
  let small: Fixture | undefined;
  try {
    if (!flags['no-build'] || !existsSync(join(ROOT, DIST_DIR, 'BUILD_ID'))) {
      log(`building into ${DIST_DIR} …`);
      const t = Date.now();
      rmSync(join(ROOT, DIST_DIR), { recursive: true, force: true });
      await runToCompletion('next build', process.execPath, [join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], buildEnv(), 480_000);
      log(`built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
    log(`seeding ${BIG} products …`);
    big = await makeFixture(dir, BIG, `http://127.0.0.1:${PORTS.big}`, 16);
    log(`seeded in ${big.seedSeconds.toFixed(1)} s`);

    const server = await startNextServer({
      label: `next ${BIG}`, port: PORTS.big, databaseUrl: big.url, storefrontCredential: big.storefront,
      cpuProfileDir: flags.profile, nodeOptions: SERVER_NODE_OPTIONS,
    });
    try {
      const targets = await discover(server.base, big);
      productBytes = targets.productBytes;
      log(`product answers ~${productBytes} bytes; ${targets.handles.length} handles, ${targets.inStock.length} in-stock variants; storefront page ${targets.storefrontPage ? 'yes' : 'NO'}, static page ${targets.staticPage ? 'yes' : 'NO'}`);
      let token = 0;
      const ceilings: Row[] = [];
      for (const key of BIG_ORDER) {
        const always = key === 'ceiling' || key === 'ceiling_c1' || (key === 'ceiling_post' && (!only || only.has('checkout')));
        if (only && !only.has(key) && !always) continue;
        const credential = big.credentials[token++ % big.credentials.length]!;
        const reference = PAIRED[key];
        if (reference) {
          const row = await interleaved(server, targets, key, reference, credential);
          if (row) rows.set(key, row);
          const alike = SAME_REQUEST[key];
          if (row && alike) {
            const same = await measureInterleaved(planFor(SCENARIOS[key], targets, credential), planFor(SCENARIOS[alike], targets, null), 2, SLICE_SECONDS, 0);
            row.sameRequest = { key: alike, rps: same.ceiling.rps, ratios: same.ratios, medianRatio: same.medianRatio };
            log(`${key} against ${alike} (${same.ceiling.rps} req/s): slice ratios ${same.ratios.join(' ')} → ${same.medianRatio}`);
          }
          continue;
        }
        const row = await runScenario(server, targets, key, credential);
        if (!row) continue;
        if (key === 'ceiling') ceilings.push(row);
        else rows.set(key, row);
      }
      liveAfterReads = await liveMemoryMb(server);
      log(`memory after the 10k scenarios (after GC): ${JSON.stringify(liveAfterReads)}`);
      const again = await runScenario(server, targets, 'ceiling', '');
      if (again) ceilings.push(again);
      ceilingRps = Math.round((ceilings.reduce((a, r) => a + r.rps, 0) / ceilings.length) * 10) / 10;
      ceilingP99 = Math.round((ceilings.reduce((a, r) => a + r.p99, 0) / ceilings.length) * 100) / 100;
      const p50 = Math.round((ceilings.reduce((a, r) => a + r.p50, 0) / ceilings.length) * 100) / 100;
      rows.set('ceiling', { ...ceilings[0]!, rps: ceilingRps, p50, p99: ceilingP99, peakRssMb: Math.max(...ceilings.map((r) => r.peakRssMb)) });
      ceilingRuns = ceilings.map((r) => r.rps);
      if (!flags['skip-mixed']) {
        log(`mixed run c=64 for ${MIXED_SECONDS} s …`);
        mixed = await mixedRun(server, targets, big.credentials.slice(-4), MIXED_SECONDS);
        log(`mixed: ${JSON.stringify(mixed)}`);
      }
    } finally {
      await server.stop();
    }

    if (!flags['skip-1k']) {
      log(`seeding ${SMALL} products …`);
      small = await makeFixture(dir, SMALL, `http://127.0.0.1:${PORTS.small}`, 8);
      const smallServer = await startNextServer({
        label: `next ${SMALL}`, port: PORTS.small, databaseUrl: small.url, storefrontCredential: small.storefront, nodeOptions: SERVER_NODE_OPTIONS,
      });
      try {
        const targets = await discover(smallServer.base, small);
        let token = 0;
        for (const key of SMALL_ORDER) {
          if (only && !only.has(key)) continue;
          const credential = small.credentials[token++ % small.credentials.length]!;
          const reference = PAIRED[key];
          const row = reference
            ? await interleaved(smallServer, targets, key, reference, credential, key === 'page')
            : await runScenario(smallServer, targets, key, credential);
          if (row) rows1k.set(key, row);
        }
      } finally {
        await smallServer.stop();
      }
    }

    const floorServer = await startFloorServer(PORTS.floor, productBytes);
    try {
      const plan = planFor(SCENARIOS.floor, { base: floorServer.base } as Targets, null);
      const result = await measure(plan, SECONDS, WARM);
      floor = { ...result, key: 'floor', peakRssMb: floorServer.rss.peakMb(...result.window) };
      log(`floor: ${floor.rps} req/s p50 ${floor.p50} p99 ${floor.p99}`);
    } finally {
      await floorServer.stop();
    }
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  load.push(loadavg());
  const meta = {
    cores: cpus().length,
    node: process.version,
    products: [BIG, SMALL],
    productBytes,
    seedSeconds: { big: big?.seedSeconds ?? null, small: small?.seedSeconds ?? null },
    liveMemoryAfterReadsMb: liveAfterReads,
    ceilingRuns,
    loadAvgStart: load[0]!.map((n) => Math.round(n * 100) / 100),
    loadAvgEnd: load[1]!.map((n) => Math.round(n * 100) / 100),
    seconds: Math.round((Date.now() - started) / 1000),
    serverNodeOptions: SERVER_NODE_OPTIONS.join(' '),
    serverMallocArenaMax: SERVER_MALLOC_ARENA_MAX,
    measureSeconds: SECONDS,
    warmSeconds: WARM,
    checkoutWarmSeconds: warmFor('checkout'),
    connections: 32,
  };
  const report = { rows, rows1k, floor, mixed, ceilingRps, ceilingP99, meta };
  console.log('');
  printTable(report);
  console.log(
    `\n${BIG.toLocaleString('en')} products; server: next start ${meta.serverNodeOptions ? `with node ${meta.serverNodeOptions}` : '(no node options)'}, ` +
      `MALLOC_ARENA_MAX=${meta.serverMallocArenaMax}; ` +
      `${meta.seconds} s in all; load average ${meta.loadAvgStart.join(' ')} → ${meta.loadAvgEnd.join(' ')}`,
  );
  console.log(jsonLine(report));
  if (!flags['skip-catalog-import']) {
    // A merchant's import of the big catalog (its own script), once every server is stopped.
    log(`catalog export → import → export of ${BIG} products …`);
    const out = await runToCompletion('catalog import', process.execPath,
      ['--conditions=react-server', '--import', 'tsx', join(ROOT, 'scripts', 'bench', 'catalog-import.ts'), `--products=${BIG}`], process.env, 300_000);
    console.log(out.split('\n').filter((l) => l.startsWith('catalog import') || l.startsWith('{"catalogImport"')).join('\n'));
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await stopAll();
    process.exit(1);
  },
);
