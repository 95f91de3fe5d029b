// npx tsx --conditions=react-server scripts/bench/tracing.ts [--no-build] [--products=1000] [--slices=5] [--seconds=3] [--port-base=3611] [--sample-ratio=0.1]
//
// What traces cost (issue #46): two `next start` instances of one build on one seeded
// database, one with OTEL_EXPORTER_OTLP_ENDPOINT unset (tracing off: no SDK, no spans) and
// one exporting every span over OTLP/HTTP to a sink in this process (tracing on, everything
// sampled). Each scenario runs on both in alternating slices (off, on, off, … off) so both see
// the same machine; the row is on's throughput over off's, slice by slice, and its median.
// A third instance, tracing off too, is measured the same way against the first: the spread
// two identical servers show on this host, i.e. what "off costs nothing" can be told from.
// Prints a table and one JSON line ({"benchTracing": {...}}). Every server it starts is stopped.
import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeFixture } from './fixture';
import { measure, measureInterleaved, rotate, type Plan } from './load';
import { runToCompletion, stopAll } from './processes';
import { buildEnv, DIST_DIR, ROOT, startNextServer, type Server } from './server';

const { values: flags } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    products: { type: 'string', default: '1000' },
    slices: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    // Three ports from here on (3611–3613 by default): pick free ones on a shared host.
    'port-base': { type: 'string', default: '3611' },
    // The traced server keeps this share of traces (OTEL_TRACES_SAMPLER=parentbased_traceidratio); default: all.
    'sample-ratio': { type: 'string' },
  },
});
const BASE_PORT = Number(flags['port-base']);
const PORTS = { off: BASE_PORT, on: BASE_PORT + 1, offAgain: BASE_PORT + 2 } as const;
const SLICES = Number(flags.slices);
const SLICE_SECONDS = Number(flags.seconds);
const log = (message: string) => console.error(`[bench:tracing ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** An OTLP/HTTP receiver that takes every export and throws it away, counting the spans. */
function spanSink(): Promise<{ server: HttpServer; url: string; spans: () => number }> {
  let spans = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      // Counting by text keeps the sink cheap: one "spanId" per span (and per link, of which there are none).
      spans += body.split('"spanId"').length - 1;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, spans: () => spans });
    }),
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sd-bench-tracing-'));
  const sink = await spanSink();
  const servers: Server[] = [];
  try {
    if (!flags['no-build']) {
      log(`building into ${DIST_DIR} …`);
      await runToCompletion(
        'build',
        process.execPath,
        [join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
        buildEnv(),
        20 * 60_000,
      );
    }
    const products = Number(flags.products);
    log(`seeding ${products} products …`);
    const fixture = await makeFixture(dir, products, `http://127.0.0.1:${PORTS.off}`, 3);
    // Every page rendered, none kept: the page row measures a render and its API calls.
    const common = { PAGE_RENDER_AHEAD: 'off', PAGE_STORE: 'off', PAGE_CACHE_MB: '0', LOG_LEVEL: 'warn' };
    const start = (label: string, port: number, env: Record<string, string>) =>
      startNextServer({ label, port, databaseUrl: fixture.url, storefrontCredential: fixture.storefront, env: { ...common, ...env } }).then(
        (s) => (servers.push(s), s),
      );
    const off = await start('tracing off', PORTS.off, {});
    const sampled: Record<string, string> = flags['sample-ratio']
      ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: flags['sample-ratio'] }
      : {};
    const on = await start('tracing on', PORTS.on, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '500', ...sampled });
    const offAgain = await start('tracing off (again)', PORTS.offAgain, {});

    // A working set every server has read once before the slices start (their caches equally
    // warm, so a ratio compares the code, not which server happened to see a product first):
    // per request, a span is then the largest share of the work it can be.
    const handles = fixture.allHandles.slice(0, 200);
    log('warming the three servers on the same 200 products …');
    for (const server of [off, on, offAgain]) {
      for (let i = 0; i < handles.length; i += 16) {
        await Promise.all(
          handles.slice(i, i + 16).map((h) =>
            fetch(`${server.base}/site/v1/commerce/products/${h}`, {
              headers: { Authorization: `Bearer ${fixture.credentials[0]!}` },
            }).then((r) => r.arrayBuffer()),
          ),
        );
      }
      await Promise.all(handles.slice(0, 8).map((h) => fetch(`${server.base}/products/${h}`).then((r) => r.arrayBuffer())));
    }
    const api = (server: Server, credential: string): Plan => {
      const next = rotate(handles);
      return {
        base: server.base,
        connections: 16,
        next: () => ({ path: `/site/v1/commerce/products/${next()}`, headers: { Authorization: `Bearer ${credential}` } }),
      };
    };
    const page = (server: Server): Plan => {
      const next = rotate(handles);
      return { base: server.base, connections: 8, next: () => ({ path: `/products/${next()}` }) };
    };
    const scenarios = [
      { key: 'api_product', label: 'API product read (c=16)', plan: (s: Server, i: number) => api(s, fixture.credentials[i]!) },
      { key: 'page_render', label: 'Product page rendered on request (c=8)', plan: (s: Server) => page(s) },
    ];
    // And the same load on each before any slice: V8 optimises what runs hot, so a server that
    // has served more requests is faster (measured: two identical servers 0.5× apart without it).
    log('the same 8 s of load on each server, per scenario …');
    for (const scenario of scenarios)
      for (const [i, server] of [off, on, offAgain].entries()) await measure(scenario.plan(server, i), 8, 0);
    const rows: Array<{
      key: string;
      label: string;
      onOverOff: number;
      onRatios: number[];
      offOverOff: number;
      offRatios: number[];
      offRps: number;
      onRps: number;
      offP50: number;
      onP50: number;
    }> = [];
    for (const scenario of scenarios) {
      log(`${scenario.label}: on vs off …`);
      const onRun = await measureInterleaved(scenario.plan(on, 1), scenario.plan(off, 0), SLICES, SLICE_SECONDS, 3);
      log(`${scenario.label}: off vs off …`);
      const offRun = await measureInterleaved(scenario.plan(offAgain, 2), scenario.plan(off, 0), SLICES, SLICE_SECONDS, 3);
      rows.push({
        key: scenario.key,
        label: scenario.label,
        onOverOff: onRun.medianRatio,
        onRatios: onRun.ratios,
        offOverOff: offRun.medianRatio,
        offRatios: offRun.ratios,
        offRps: Math.round(onRun.ceiling.rps),
        onRps: Math.round(onRun.operation.rps),
        offP50: onRun.ceiling.p50,
        onP50: onRun.operation.p50,
      });
    }
    const exported = sink.spans();
    console.log(
      `\nTracing cost, ${products} products, ${flags['sample-ratio'] ? `${flags['sample-ratio']} of traces kept` : 'every trace kept'}; host: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      '| scenario | off req/s, p50 | on req/s, p50 | on / off (median, slices) | off / off, two identical servers (median, slices) |',
    );
    console.log('|---|---:|---:|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.label} | ${r.offRps}, ${r.offP50} ms | ${r.onRps}, ${r.onP50} ms | ${r.onOverOff} (${r.onRatios.join(' ')}) | ${r.offOverOff} (${r.offRatios.join(' ')}) |`,
      );
    }
    console.log(`spans exported by the traced server: ${exported}`);
    console.log(JSON.stringify({ benchTracing: { products, rows, spans: exported } }));
    if (exported === 0) throw new Error('the traced server exported no spans: the "on" row measured nothing');
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await stopAll();
    sink.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
