// npm run bench [-- --quick] [--no-build] [--only=product,list] [--skip-1k] [--skip-mixed] [--skip-catalog-import]
//                 [--skip-lighthouse] [--skip-list-attack] [--skip-remote] [--skip-ahead] [--products=10000] [--profile=<dir>] [--server-node-options="<V8 flags; default: those of npm start>"]
//                 [--mixed-seconds=600] [--pass-seconds=300]
//
// --only takes scenario keys (scripts/bench/scenarios.ts) and `ahead_changed` (rendering
// ahead after a one-product price change); the first and second passes are product_cold,
// product_warm, page_cold, page_warm.
//
// Seeds fresh 10k- and 1k-product databases, builds and starts the production server and the
// reference (a bare Next app in its own process, scripts/bench/reference-app), and measures
// each scenario in slices alternating with its reference route: reads rotate over the whole
// catalog after a short, fixed warm-up. Prints the table with the targets, the cold-to-warm
// curve of product reads, the 1k→10k growth, and last one JSON line ({"bench": {...}}).
// Every server it starts is stopped on exit.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { changeOnePrice, makeFixture, type Fixture } from './fixture';
import { closeDatabase, execute, openDatabase } from '@/db';
import { curve, measureInterleaved, pass, sequentialLatency } from './load';
import { listAttack, type ListAttack } from './list-attack';
import { printRemote, remoteRoundTrips } from './remote';
import { mixedRun, type MixedResult } from './mixed';
import { fetchWithin, memoryMapMb, runToCompletion, stopAll, within } from './processes';
import { buildReference, referenceMemoryMb, savePage, startReference } from './reference';
import { formatTable, lighthouseTable, storefrontPages, type LighthouseRow } from './lighthouse';
import { jsonLine, printTable, type AheadAfterChange, type MemoryBreakdown, type Row } from './report';
import { discover, planFor, referencePlan, SCENARIOS, type Scenario, type ScenarioKey, type Targets } from './scenarios';
import {
  buildEnv,
  DIST_DIR,
  liveMemoryMb,
  ROOT,
  SERVER_MALLOC_ARENA_MAX,
  START_NODE_OPTIONS,
  startNextServer,
  type Memory,
  type Server,
} from './server';

/** BENCH_PORT_BASE moves the five ports (several runs on one host). */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3601);
const PORTS = { big: PORT_BASE, small: PORT_BASE + 1, reference: PORT_BASE + 2, renderer: PORT_BASE + 3, passes: PORT_BASE + 4 } as const;
const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    'skip-1k': { type: 'boolean', default: false },
    'skip-mixed': { type: 'boolean', default: false },
    'skip-catalog-import': { type: 'boolean', default: false },
    'skip-lighthouse': { type: 'boolean', default: false },
    'skip-list-attack': { type: 'boolean', default: false },
    'skip-remote': { type: 'boolean', default: false },
    'skip-ahead': { type: 'boolean', default: false },
    profile: { type: 'string' },
    products: { type: 'string', default: '10000' },
    // The mixed run: 10 minutes at c=64 (issue #44.5); shorter while developing.
    'mixed-seconds': { type: 'string' },
    // A first or second pass over the catalog is cut off after this long (a pass of pages rendered on request takes minutes).
    'pass-seconds': { type: 'string' },
    // What `npm start` uses: a heap cap, and how V8 sizes the heap under it (docs/operating.md).
    'server-node-options': { type: 'string', default: START_NODE_OPTIONS.join(' ') },
  },
});
/** The fixed warm-up before each scenario (its reference gets 1 s): the same for every read. */
const WARM = flags.quick ? 1 : 3;
/**
 * Alternating slices: reference, then (scenario, reference) × SLICES. Five, not three: single
 * slices of one row swing by a fifth on this host, and a median of five moves less.
 */
const SLICES = flags.quick ? 3 : 5;
const SLICE_SECONDS = flags.quick ? 1.5 : 3;
/** Seconds of the cold-to-warm curve (product reads over the whole catalog, from the server's start) and its buckets. */
const CURVE = flags.quick ? { seconds: 8, bucket: 2 } : { seconds: 30, bucket: 3 };
const MIXED_SECONDS = Number(flags['mixed-seconds'] ?? (flags.quick ? 15 : 600));
const PASS_SECONDS = Number(flags['pass-seconds'] ?? (flags.quick ? 60 : 300));
const BIG = Number(flags.products);
const SMALL = 1000;

const BIG_ORDER: ScenarioKey[] = [
  'product_c1',
  'product',
  'list',
  'collection',
  'availability',
  'snapshot',
  'search_words_c1',
  'search_prefix_c1',
  'search_faceted_c1',
  'search_words',
  'search_prefix',
  'search_faceted',
  'page',
  'page_render',
  'checkout',
];
/**
 * After the mixed run and Lighthouse: it changes the catalog, and so every cache's key; the
 * memory figures and the mixed run's leak check expect the caches as the reads left them.
 */
const BIG_LAST: ScenarioKey[] = ['page_changed', 'product_changed'];
const SMALL_ORDER: ScenarioKey[] = [
  'product',
  'list',
  'collection',
  'availability',
  'snapshot',
  'search_words',
  'search_prefix',
  'search_faceted',
  'page',
];
/** Checkout creation reaches its steady rate only after ~10 s of load on a fresh server (JIT of the write path). */
const warmFor = (key: ScenarioKey) => (key === 'checkout' && !flags.quick ? 10 : WARM);
/** Pages of the whole catalog are rendered, not served: a request takes ~1 s at c=32, so their slices are longer. */
const sliceFor = (key: ScenarioKey) => (key.startsWith('page') && !flags.quick ? 5 : SLICE_SECONDS);
const only = flags.only ? new Set(flags.only.split(',')) : null;
const SERVER_NODE_OPTIONS = (flags['server-node-options'] ?? '').split(/\s+/).filter(Boolean);

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** A scenario against its reference, in alternating slices; c=1 scenarios one after the other, each after its warm-up. */
async function paired(server: Server, reference: Server, targets: Targets, scenario: Scenario, credential: string): Promise<Row> {
  const plan = planFor(scenario, targets, credential);
  const referenceRequests = { base: reference.base, connections: scenario.connections, next: referencePlan(scenario, targets, credential) };
  if (scenario.connections === 1) {
    const ref = await sequentialLatency(referenceRequests, SLICE_SECONDS * 2, WARM);
    const op = await sequentialLatency(plan, SLICE_SECONDS * 2, WARM);
    const ratio = ref.rps > 0 ? Math.round((op.rps / ref.rps) * 100) / 100 : 0;
    const row: Row = {
      ...op,
      key: scenario.key,
      peakRssMb: server.rss.peakMb(...op.window),
      reference: {
        kind: scenario.reference,
        rps: ref.rps,
        p50: ref.p50,
        p99: ref.p99,
        ratios: [ratio],
        medianRatio: ratio,
        peakRssMb: reference.rss.peakMb(...ref.window),
      },
    };
    log(`${scenario.key}: ${op.rps} req/s p50 ${op.p50} p99 ${op.p99} errors ${op.errors}; reference ${ref.rps} req/s p50 ${ref.p50}`);
    return row;
  }
  const m = await measureInterleaved(plan, referenceRequests, SLICES, sliceFor(scenario.key), warmFor(scenario.key));
  const row: Row = {
    ...m.operation,
    key: scenario.key,
    peakRssMb: server.rss.peakMb(...m.operation.window),
    reference: {
      kind: scenario.reference,
      rps: m.ceiling.rps,
      p50: m.ceiling.p50,
      p99: m.ceiling.p99,
      ratios: m.ratios,
      medianRatio: m.medianRatio,
      peakRssMb: reference.rss.peakMb(...m.ceiling.window),
    },
  };
  log(
    `${scenario.key}: ${row.rps} req/s p50 ${row.p50} p99 ${row.p99} errors ${row.errors} rss ${row.peakRssMb} MB ${JSON.stringify(row.statusCodes)}; ` +
      `reference ${scenario.reference} ${m.ceiling.rps} req/s p99 ${m.ceiling.p99} rss ${row.reference.peakRssMb} MB: slice ratios ${m.ratios.join(' ')} → ${m.medianRatio}`,
  );
  return row;
}

/** What rendering a catalog's product pages ahead took (renderAhead): every pass's pages, and seconds from the instance's start to its last pass's end (within 1 s). */
type RenderedAhead = { pages: number; seconds: number; passes: number; peakRssMb: number };

/**
 * Every product page of the catalog rendered ahead and kept in the database, by an instance
 * of its own on the same database serving the same public origin, as a second instance of a
 * deployment would. The measured server renders none ahead itself (PAGE_RENDER_AHEAD=off):
 * its scenarios would share the CPU with rendering, and its cold-to-warm curve would not be
 * cold. It finds the pages kept, as an instance started after a catalog change settled does.
 */
async function renderAhead(fixture: Fixture, origin: string): Promise<RenderedAhead> {
  const renderer = await startNextServer({
    label: `render-ahead ${fixture.products}`,
    port: PORTS.renderer,
    databaseUrl: fixture.url,
    storefrontCredential: fixture.storefront,
    nodeOptions: SERVER_NODE_OPTIONS,
    env: { STOREFRONT_ORIGIN: origin },
  });
  try {
    const started = Date.now();
    const deadline = started + 20 * 60_000;
    for (;;) {
      const output = renderer.managed.output();
      if (/product pages ahead of shoppers: \d+ rendered in/.test(output)) {
        // A pass has a time budget: a slow catalog takes several, each logged, the last as finished.
        const passes = [
          ...output.matchAll(/product pages ahead of shoppers(?:, pass not finished \([^)]*\))?: (\d+) rendered in [\d.]+ s/g),
        ];
        return {
          pages: passes.reduce((sum, m) => sum + Number(m[1]), 0),
          seconds: Math.round((Date.now() - started) / 100) / 10,
          passes: passes.length,
          peakRssMb: renderer.rss.peakMb(),
        };
      }
      if (Date.now() > deadline)
        throw new Error(`rendering ahead did not finish in 20 minutes:\n${renderer.managed.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await renderer.stop();
  }
}

/**
 * Every product read, then every product page, on a server started for it (as a new
 * instance finds the shop: pages kept in the database, nothing in memory): its first pass
 * over the catalog, then its second, each against the reference's pass over the same
 * paths right before and right after. The reference's latencies are its pass before.
 */
async function catalogPasses(fixture: Fixture, targets: Targets, reference: Server, credential: string, origin: string): Promise<Row[]> {
  const rows: Row[] = [];
  const count = targets.allHandles.length;
  for (const [coldKey, warmKey] of [
    ['product_cold', 'product_warm'],
    ['page_cold', 'page_warm'],
  ] as const) {
    if (only && !only.has(coldKey) && !only.has(warmKey)) continue;
    const server = await startNextServer({
      label: `next ${fixture.products} (${coldKey.split('_')[0]} passes)`,
      port: PORTS.passes,
      databaseUrl: fixture.url,
      storefrontCredential: fixture.storefront,
      nodeOptions: SERVER_NODE_OPTIONS,
      env: { STOREFRONT_ORIGIN: origin, PAGE_RENDER_AHEAD: 'off' },
    });
    try {
      const scenario = SCENARIOS[coldKey];
      // A fresh rotation for each pass, so each asks for every path once.
      const own = () => planFor(scenario, { ...targets, base: server.base }, credential);
      const bare = () => ({ base: reference.base, connections: scenario.connections, next: referencePlan(scenario, targets, credential) });
      const before = await pass(bare(), count, PASS_SECONDS);
      const cold = await pass(own(), count, PASS_SECONDS);
      const warm = await pass(own(), count, PASS_SECONDS);
      const after = await pass(bare(), count, PASS_SECONDS);
      const referencePeak = Math.max(reference.rss.peakMb(...before.window), reference.rss.peakMb(...after.window));
      for (const [key, m] of [
        [coldKey, cold],
        [warmKey, warm],
      ] as const) {
        const ratios = [before, after].map((r) => (r.rps > 0 ? Math.round((m.rps / r.rps) * 100) / 100 : 0));
        const row: Row = {
          ...m,
          key,
          peakRssMb: server.rss.peakMb(...m.window),
          passOf: count,
          seconds: Math.round((m.window[1] - m.window[0]) / 100) / 10,
          reference: {
            kind: scenario.reference,
            rps: Math.round(((before.rps + after.rps) / 2) * 10) / 10,
            p50: before.p50,
            p99: before.p99,
            ratios,
            medianRatio: Math.round(((ratios[0]! + ratios[1]!) / 2) * 100) / 100,
            peakRssMb: referencePeak,
          },
        };
        rows.push(row);
        log(
          `${key}: ${m.requests} of ${count} in ${row.seconds} s, ${m.rps} req/s p50 ${m.p50} p99 ${m.p99} errors ${m.errors} rss ${row.peakRssMb} MB ` +
            `${JSON.stringify(m.tally ?? m.statusCodes)}; reference ${before.rps} / ${after.rps} req/s p99 ${before.p99} rss ${referencePeak} MB → ${row.reference.medianRatio}`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/**
 * Rendering ahead right after one product's prices changed: an instance of its own (as
 * another instance of the deployment, on the measured server's origin), its timers off,
 * asked for passes of the job through its cron route until one finishes, with no shopper
 * meanwhile. Undefined when this build has no render-ahead job.
 */
async function aheadAfterChange(fixture: Fixture, origin: string): Promise<AheadAfterChange | undefined> {
  const secret = randomUUID();
  const renderer = await startNextServer({
    label: `render-ahead after a change ${fixture.products}`,
    port: PORTS.renderer,
    databaseUrl: fixture.url,
    storefrontCredential: fixture.storefront,
    nodeOptions: SERVER_NODE_OPTIONS,
    env: { STOREFRONT_ORIGIN: origin, JOBS: 'cron', CRON_SECRET: secret },
  });
  try {
    // Rendering ahead until it has nothing left (addresses shoppers asked at during the run, in
    // other languages, are rendered whole there): the measured pass is then the change's alone.
    const before = await renderAheadPasses(renderer.base, secret);
    if (!before) return undefined;
    log(`rendering ahead before the change: ${before.rendered} pages in ${before.seconds} s`);
    const since = Date.now();
    const handle = await changeOnePrice(fixture);
    log(`changed the prices of ${handle}; rendering ahead …`);
    const after = await renderAheadPasses(renderer.base, secret);
    if (!after) return undefined;
    const written = await pagesWrittenSince(fixture, since);
    return { handle, ...after, written, renderedBefore: before.rendered };
  } finally {
    await renderer.stop();
  }
}

/** The render-ahead cron route asked until a pass finishes: the pages it rendered, and how long it took. */
async function renderAheadPasses(base: string, secret: string): Promise<{ rendered: number; seconds: number } | undefined> {
  const started = Date.now();
  let rendered = 0;
  for (;;) {
    const res = await fetchWithin(`${base}/api/cron/render-ahead`, 180_000, { headers: { Authorization: `Bearer ${secret}` } });
    const body = JSON.parse(res.body) as { rendered?: number; finished?: string; skipped?: string };
    if (res.status === 404) {
      log(`no render-ahead job in this build (${JSON.stringify(body).slice(0, 200)})`);
      return undefined;
    }
    if (!res.ok || body.skipped) throw new Error(`render-ahead answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
    rendered += body.rendered ?? 0;
    if (body.finished !== 'no') break;
    if (Date.now() - started > 20 * 60_000) throw new Error('rendering ahead did not finish in 20 minutes');
  }
  return { rendered, seconds: Math.round((Date.now() - started) / 100) / 10 };
}

/** Kept pages the database got since `since` (ms), or null when it keeps none in stored_pages. */
async function pagesWrittenSince(fixture: Fixture, since: number): Promise<number | null> {
  const database = openDatabase({ url: fixture.url });
  try {
    const rows = await execute(database, { sql: 'SELECT count(*) AS n FROM stored_pages WHERE stored_at >= ?', args: [since] });
    return Number(rows.rows[0]?.n ?? 0);
  } catch {
    return null;
  } finally {
    closeDatabase(database);
  }
}

/** One catalog: its server, the reference serving its page's bytes, and the scenarios in order. */
async function renderAheadLogged(fixture: Fixture, origin: string): Promise<RenderedAhead> {
  log(`rendering the ${fixture.products} product pages ahead …`);
  const ahead = await renderAhead(fixture, origin);
  log(
    `rendered ${ahead.pages} pages ahead in ${ahead.seconds} s, ${ahead.passes} pass(es) (peak RSS of that instance ${ahead.peakRssMb} MB)`,
  );
  return ahead;
}

async function measureCatalog(
  fixture: Fixture,
  port: number,
  order: ScenarioKey[],
  dir: string,
  extra: (server: Server, reference: Server, targets: Targets) => Promise<void> = async () => {},
  last: ScenarioKey[] = [],
): Promise<{
  rows: Map<ScenarioKey, Row>;
  curve?: { rps: number[]; errors: number };
  targets: Targets;
  ahead: RenderedAhead;
  aheadAfterChange?: AheadAfterChange;
}> {
  const origin = `http://127.0.0.1:${port}`;
  // --skip-ahead: for scenarios that read no product page (search, lists), on a host too busy to render 10,000 pages.
  const ahead = flags['skip-ahead'] ? { pages: 0, seconds: 0, passes: 0, peakRssMb: 0 } : await renderAheadLogged(fixture, origin);
  const server = await startNextServer({
    label: `next ${fixture.products}`,
    port,
    databaseUrl: fixture.url,
    storefrontCredential: fixture.storefront,
    cpuProfileDir: flags.profile,
    nodeOptions: SERVER_NODE_OPTIONS,
    env: { STOREFRONT_ORIGIN: origin, PAGE_RENDER_AHEAD: 'off' },
  });
  let reference: Server | undefined;
  try {
    const rows = new Map<ScenarioKey, Row>();
    // First, from the server's start: product reads over the whole catalog, as a fresh
    // instance meets them (discovery reads a 100-product sample first, nothing else).
    let warmCurve: { rps: number[]; errors: number } | undefined;
    const targets = await discover(server.base, fixture);
    if (fixture.products === BIG) {
      log(`cold-to-warm: product reads over ${targets.allHandles.length} handles for ${CURVE.seconds} s …`);
      warmCurve = await curve(planFor(SCENARIOS.product, targets, fixture.credentials[0]!), CURVE.seconds, CURVE.bucket);
      log(`cold-to-warm req/s per ${CURVE.bucket} s: ${warmCurve.rps.join(' ')} (errors ${warmCurve.errors})`);
    }
    log(
      `answers: ${JSON.stringify(targets.bytes)} bytes; ${targets.allHandles.length} handles, ${targets.listPaths.length} list pages, ` +
        `${targets.collectionPaths.length} collection pages, ${targets.availabilityPaths.length} batches, ${targets.inStock.length} in-stock variants`,
    );
    const bare = await startReference(PORTS.reference, savePage(dir, targets.pageHtml));
    reference = bare;
    if (fixture.products === BIG) {
      log(`first and second passes over the ${targets.allHandles.length} products, each on a server of its own …`);
      for (const row of await catalogPasses(fixture, targets, bare, fixture.credentials[0]!, origin)) rows.set(row.key, row);
    }
    let token = 1;
    const measure = async (keys: ScenarioKey[]) => {
      for (const key of keys) {
        if (only && !only.has(key)) continue;
        const credential = fixture.credentials[token++ % fixture.credentials.length]!;
        if (SCENARIOS[key].changesCatalog) {
          // First every path once, unmeasured, as an instance that served the catalog before the
          // change: the row then shows what the change made stale, not what was never asked for.
          const before = await pass(planFor(SCENARIOS[key], targets, credential), targets.allHandles.length, PASS_SECONDS);
          log(`${key}: ${before.requests} paths read before the change (${before.rps} req/s)`);
          log(`changed the prices of ${await changeOnePrice(fixture)}`);
        }
        rows.set(key, await paired(server, bare, targets, SCENARIOS[key], credential));
      }
    };
    await measure(order);
    await extra(server, bare, targets);
    await measure(last);
    // Last: it changes the catalog again, and renders on an instance of its own.
    let afterChange: AheadAfterChange | undefined;
    if (fixture.products === BIG && (!only || only.has('ahead_changed'))) {
      afterChange = await aheadAfterChange(fixture, origin);
      if (afterChange) log(`rendered ahead after a change: ${JSON.stringify(afterChange)}`);
    }
    return { rows, curve: warmCurve, targets, ahead, aheadAfterChange: afterChange };
  } finally {
    await reference?.stop();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const load = [loadavg()];
  const dir = mkdtempSync(join(tmpdir(), 'site-bench-'));
  // also on Ctrl-C, which exits from the signal handler without unwinding
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  log(
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} on ${cpus().length} cores; data in ${dir}`,
  );
  let rows = new Map<ScenarioKey, Row>();
  let rows1k = new Map<ScenarioKey, Row>();
  let warmCurve: { rps: number[]; errors: number } | undefined;
  let afterChange: AheadAfterChange | undefined;
  let mixed: MixedResult | undefined;
  let lighthouse: LighthouseRow[] | undefined;
  let attack: ListAttack | undefined;
  let liveAfterReads: Memory | null = null;
  let memory: MemoryBreakdown | undefined;
  let big: Fixture | undefined;
  let small: Fixture | undefined;
  const renderedAhead: { big?: RenderedAhead; small?: RenderedAhead } = {};
  try {
    if (!flags['no-build'] || !existsSync(join(ROOT, DIST_DIR, 'BUILD_ID'))) {
      log(`building into ${DIST_DIR} …`);
      const t = Date.now();
      rmSync(join(ROOT, DIST_DIR), { recursive: true, force: true });
      await runToCompletion(
        'next build',
        process.execPath,
        [join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
        buildEnv(),
        480_000,
      );
      log(`built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
    log('building the reference app …');
    await buildReference();
    log(`seeding ${BIG} products …`);
    big = await makeFixture(dir, BIG, `http://127.0.0.1:${PORTS.big}`, 16);
    log(`seeded in ${big.seedSeconds.toFixed(1)} s`);

    const measured = await measureCatalog(
      big,
      PORTS.big,
      BIG_ORDER,
      dir,
      async (server, reference, targets) => {
        // Where each process's memory is, the shop's before its live heap is measured (a full GC).
        const shopMap = memoryMapMb(server.managed.pid);
        const bareMap = memoryMapMb(reference.managed.pid);
        const bareUsage = await referenceMemoryMb(reference);
        liveAfterReads = await liveMemoryMb(server);
        memory = { shop: { map: shopMap, usage: liveAfterReads }, bare: { map: bareMap, usage: bareUsage } };
        log(`memory after the ${BIG} scenarios: ${JSON.stringify(memory)}`);
        if (!flags['skip-mixed']) {
          log(`mixed run c=64 for ${MIXED_SECONDS} s …`);
          // Bounded as a whole: whatever waits in it (the load, the memory probes) fails the run instead of holding it.
          mixed = await within(
            mixedRun(server, targets, big!.credentials.slice(-4), MIXED_SECONDS, log),
            MIXED_SECONDS * 1000 + 180_000,
            'the mixed run',
          );
          log(`mixed: ${JSON.stringify(mixed)}`);
        }
        if (!flags['skip-lighthouse']) {
          // The shop's pages beside a bare Next page of the same framework, in the same rounds:
          // this CPU is slower than Lighthouse's model of a phone assumes.
          log("Lighthouse: the shop's pages and the reference's static page, 3 runs each, mobile and desktop …");
          const pages = [
            ...(await storefrontPages(server.base)),
            { label: 'bare Next static page (reference)', url: `${reference.base}/` },
          ];
          lighthouse = await lighthouseTable(pages, { runs: flags.quick ? 1 : 3, log });
        }
        if (!flags['skip-list-attack']) {
          // Changes one price (the first list request after it builds the list index): after the
          // scenarios, the memory figures and Lighthouse, as page_changed is.
          log(
            "list attack: the worst list requests uncached, and a shopper's product pages while one visitor loops on the worst search page …",
          );
          attack = await listAttack(server.base, big!, big!.credentials[1]!, flags.quick ? 4 : 10, log);
        }
      },
      BIG_LAST,
    );
    rows = measured.rows;
    warmCurve = measured.curve;
    afterChange = measured.aheadAfterChange;
    renderedAhead.big = measured.ahead;

    if (!flags['skip-1k']) {
      log(`seeding ${SMALL} products …`);
      small = await makeFixture(dir, SMALL, `http://127.0.0.1:${PORTS.small}`, 8);
      const measuredSmall = await measureCatalog(small, PORTS.small, SMALL_ORDER, dir);
      rows1k = measuredSmall.rows;
      renderedAhead.small = measuredSmall.ahead;
    }
  } finally {
    await stopAll();
  }
  load.push(loadavg());
  const meta = {
    cores: cpus().length,
    node: process.version,
    products: [BIG, SMALL],
    seedSeconds: { big: big?.seedSeconds ?? null, small: small?.seedSeconds ?? null },
    renderedAhead: { big: renderedAhead.big ?? null, small: renderedAhead.small ?? null },
    liveMemoryAfterReadsMb: liveAfterReads,
    loadAvgStart: load[0]!.map((n) => Math.round(n * 100) / 100),
    loadAvgEnd: load[1]!.map((n) => Math.round(n * 100) / 100),
    seconds: Math.round((Date.now() - started) / 1000),
    serverNodeOptions: SERVER_NODE_OPTIONS.join(' '),
    serverMallocArenaMax: SERVER_MALLOC_ARENA_MAX,
    warmSeconds: WARM,
    slices: SLICES,
    sliceSeconds: SLICE_SECONDS,
    connections: 32,
  };
  const report = {
    rows,
    rows1k,
    mixed,
    lighthouse,
    curve: warmCurve ? { ...warmCurve, bucketSeconds: CURVE.bucket } : undefined,
    aheadAfterChange: afterChange,
    memory,
    meta,
  };
  console.log('');
  printTable(report);
  if (lighthouse)
    console.log(`\nLighthouse (medians of ${flags.quick ? 1 : 3} runs; Debian Chromium on this host):\n${formatTable(lighthouse)}`);
  console.log(
    `\n${BIG.toLocaleString('en')} products; server: next start ${meta.serverNodeOptions ? `with node ${meta.serverNodeOptions}` : '(no node options)'}, ` +
      `MALLOC_ARENA_MAX=${meta.serverMallocArenaMax}; ` +
      `${meta.seconds} s in all; load average ${meta.loadAvgStart.join(' ')} → ${meta.loadAvgEnd.join(' ')}`,
  );
  const ahead = meta.renderedAhead.big;
  if (ahead) {
    console.log(
      `Product pages rendered ahead (an instance of their own, one at a time): ${ahead.pages.toLocaleString('en')} in ${ahead.seconds} s (${ahead.passes} pass(es) of at most 5 min), ` +
        `peak RSS ${ahead.peakRssMb} MB; the page rows are served from them, page_render renders a language none was rendered in.`,
    );
  }
  if (attack) {
    const { worstP50, firstAfterChange, probe } = attack;
    console.log(
      `\nList attack (issue #42), ${BIG.toLocaleString('en')} products: worst list request uncached p50 ${worstP50.ms} ms (${worstP50.kind}); ` +
        `first after a catalog change ${firstAfterChange.ms} ms. A shopper's product page p50 idle ${probe.idle.p50} ms, ` +
        `while one visitor loops on the worst search page ${probe.attackerC1.p50} ms (c=1), ${probe.attackerC8.p50} ms (c=8)`,
    );
  }
  console.log(jsonLine(report));
  if (attack) console.log(JSON.stringify({ listAttack: attack }));
  if (!flags['skip-remote']) {
    // Round trips to a remote libSQL database (issue #43), on servers of its own.
    log('remote: round trips per action to a libSQL test server at 0 and 20 ms a round trip, and an idle instance …');
    const remote = await remoteRoundTrips({
      products: 1000,
      latencies: [0, 20],
      idleSeconds: flags.quick ? 20 : 60,
      runs: flags.quick ? 3 : 5,
      log,
    });
    printRemote(remote);
    console.log(JSON.stringify({ remote }));
  }
  if (!flags['skip-catalog-import']) {
    // A merchant's import of the big catalog (its own script), once every server is stopped:
    // into a local file, then over the libSQL test server at 20 ms a request while checkouts
    // on another instance go on.
    for (const remote of [false, true]) {
      log(`catalog export → import → export of ${BIG} products${remote ? ', over the libSQL test server at 20 ms' : ''} …`);
      const out = await runToCompletion(
        'catalog import',
        process.execPath,
        [
          '--conditions=react-server',
          '--import',
          'tsx',
          join(ROOT, 'scripts', 'bench', 'catalog-import.ts'),
          `--products=${BIG}`,
          ...(remote ? ['--remote', '--latency=20'] : []),
        ],
        process.env,
        600_000,
      );
      console.log(
        out
          .split('\n')
          .filter((l) => /^(catalog import|  over the libSQL|  checkouts on another)/.test(l) || l.startsWith('{"catalogImport"'))
          .join('\n'),
      );
    }
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
