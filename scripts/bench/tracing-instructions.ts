// npx tsx --conditions=react-server scripts/bench/tracing-instructions.ts [--products=1000] [--only=api_product|page_render]
//   [--requests=600] [--pages=60] [--windows=3] [--warm=1500] [--port-base=4200] [--servers=off,default,all] [--keep=<dir>]
//
// What traces cost (issue #46), counted in instructions instead of CPU time, so that the
// answer does not depend on how busy the host is: on a shared host two identical servers'
// CPU per request differ by up to ±15 % (scripts/bench/tracing.ts), which hides the 10 % the
// issue allows. Each server (`next start` of NEXT_DIST_DIR's build, one seeded database) runs
// under `valgrind --tool=callgrind` with instrumentation off while it starts and warms up (V8
// optimises by how much code ran, not by time, so every server gets the same warm-up); then
// instrumentation is switched on, and each measured window is `callgrind_control -z`, a fixed
// number of requests, `callgrind_control -d`: the instructions every thread of the server
// executed (JIT code, GC, libuv), over the requests, and the part outside V8's garbage
// collector and compilers, which depends far less on when V8 ran them. Servers: `off` (OTEL_EXPORTER_OTLP_ENDPOINT
// unset), `default` (the documented sampling), `all` (every trace kept); `name:KEY=VALUE;…`
// adds a server with those settings on top of `default`'s. Prints instructions per request per
// window and each server's median ratio over the `off*` servers' (name two, e.g. off,off2, to see
// what identical servers differ by), and one JSON line ({"benchTracingInstructions": …}).
// Slow by design: ~50× a server's own CPU time while measured.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { makeFixture } from './fixture';
import { stopAll } from './processes';
import { spanSink } from './span-sink';
import { startNextServer, type Server } from './server';

const { values: flags } = parseArgs({
  options: {
    products: { type: 'string', default: '1000' },
    only: { type: 'string' },
    requests: { type: 'string', default: '600' },
    pages: { type: 'string', default: '60' },
    windows: { type: 'string', default: '3' },
    warm: { type: 'string', default: '1500' },
    'port-base': { type: 'string', default: '4200' },
    servers: { type: 'string', default: 'off,default,all' },
    // Keep callgrind's dumps (one per window, cg.<pid>.<n>) in this folder, for callgrind_annotate.
    keep: { type: 'string' },
    // V8 options for every server, e.g. --predictable (one thread, a fixed random seed): fewer
    // instructions that depend on timing (background compiles, concurrent marking).
    'node-options': { type: 'string', default: '' },
  },
});
const log = (message: string) => console.error(`[bench:tracing-instructions ${new Date().toISOString().slice(11, 19)}] ${message}`);
const run = promisify(execFile);

type Request = { path: string; headers?: Record<string, string> };

/** `count` requests over `paths` (in turn), `concurrency` at a time; throws on any answer but 200. */
async function drive(base: string, next: () => Request, count: number, concurrency: number): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const { path, headers } = next();
      // A kept-alive connection the server closed as it was reused (ECONNRESET): a slow
      // server's idle timeout meets the next request. The request never reached it; send it again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          const res = await fetch(`${base}${path}`, { headers });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
          break;
        } catch (error) {
          if (attempt >= 3 || !String((error as { cause?: unknown }).cause).includes('ECONNRESET')) throw error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * A callgrind monitor command to the server. vgdb delivers it when the process next runs
 * valgrind's scheduler, so the server is kept busy with requests until it is acknowledged.
 */
async function control(server: Server, args: string[], poke: () => Request): Promise<void> {
  let done = false;
  const command = run('callgrind_control', [...args, String(server.managed.pid)]).finally(() => (done = true));
  while (!done) await drive(server.base, poke, 1, 1);
  await command;
}

// V8's own functions by name: the garbage collector's, and the compilers' (and stack walks
// for bytecode offsets). What is neither is the "mutator": our code, Next's, the builtins.
const GC =
  /Heap|Scaveng|Marking|Sweep|Evacuat|Compact|MemoryChunk|heap::base|cppgc|RememberedSet|SlotSet|IteratePointers<v8::internal::(Concurrent|Main|Scaveng|IterateAndScaveng|Record)|IterateObjectCache|Pretenuring|SizeFromMap|FreeList|memset/;
const COMPILE =
  /compiler::|[Mm]aglev|[Tt]urbo|baseline::|BytecodeGenerator|interpreter::Bytecode|Parser|Scanner|Zone|RelocIterator|Assembler|CodeGenerator|SourcePosition|BytecodeOffset|Deoptimiz/;

/**
 * The newest dump of a server's callgrind output: every instruction (Ir), and those of the
 * garbage collector and the compilers, by function name (callgrind_annotate). Those two
 * depend on when V8 chose to run them, so a window's total moves by ±10 % between windows
 * of one server; the rest ("mutator") moves far less.
 */
async function lastDump(dir: string, pid: number): Promise<{ total: number; gc: number; compile: number }> {
  const dumps = readdirSync(dir)
    .filter((f) => f.startsWith(`cg.${pid}.`))
    .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  const file = join(dir, dumps[dumps.length - 1]!);
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
  if (!totals) throw new Error(`no totals in ${file}`);
  const { stdout } = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { maxBuffer: 256 * 1024 * 1024 });
  let gc = 0;
  let compile = 0;
  for (const line of stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2]!.includes('PROGRAM TOTALS')) continue;
    const ir = Number(m[1]!.replaceAll(',', ''));
    if (GC.test(m[2]!)) gc += ir;
    else if (COMPILE.test(m[2]!)) compile += ir;
  }
  return { total: Number(totals[1]), gc, compile };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sd-bench-tracing-ir-'));
  const sink = await spanSink();
  const servers: Server[] = [];
  try {
    const products = Number(flags.products);
    log(`seeding ${products} products …`);
    const specs = flags.servers.split(',').map((spec) => {
      const [name, settings] = spec.split(':') as [string, string | undefined];
      return { name, settings };
    });
    const fixture = await makeFixture(dir, products, `http://127.0.0.1:${flags['port-base']}`, specs.length);
    const common = { PAGE_RENDER_AHEAD: 'off', PAGE_STORE: 'off', PAGE_CACHE_MB: '0', LOG_LEVEL: 'warn' };
    const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '500' };
    const envFor = (name: string, settings?: string): Record<string, string> => {
      if (name.startsWith('off')) return {};
      if (name === 'all') return { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_always_on' };
      const extra = Object.fromEntries(
        (settings ?? '')
          .split(';')
          .filter(Boolean)
          .map((kv) => kv.split('=') as [string, string]),
      );
      return { ...exporting, ...extra };
    };
    log(`starting ${specs.length} servers under callgrind …`);
    const started = await Promise.all(
      specs.map((spec, i) =>
        startNextServer({
          label: spec.name,
          port: Number(flags['port-base']) + i,
          databaseUrl: fixture.url,
          storefrontCredential: fixture.storefront,
          env: { ...common, ...envFor(spec.name, spec.settings) },
          nodeOptions: flags['node-options'].split(' ').filter(Boolean),
          launcher: {
            command: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dir, 'cg.%p')}`],
            readyTimeoutMs: 15 * 60_000,
          },
        }),
      ),
    );
    servers.push(...started);
    const handles = fixture.allHandles.slice(0, 200);
    const rotate = <T>(items: T[]) => {
      let i = 0;
      return () => items[i++ % items.length]!;
    };
    const scenarios = [
      {
        key: 'api_product',
        concurrency: 8,
        count: Number(flags.requests),
        warm: Number(flags.warm),
        plan: (i: number) => {
          const next = rotate(handles);
          const headers = { Authorization: `Bearer ${fixture.credentials[i]!}` };
          return () => ({ path: `/site/v1/commerce/products/${next()}`, headers });
        },
      },
      {
        key: 'page_render',
        concurrency: 4,
        count: Number(flags.pages),
        warm: Math.ceil(Number(flags.warm) / 10),
        plan: () => {
          const next = rotate(handles);
          return () => ({ path: `/products/${next()}` });
        },
      },
    ].filter((s) => !flags.only || s.key === flags.only);
    const windows = Number(flags.windows);
    const results: Record<string, Record<string, number[]>> = {};
    const mutators: Record<string, Record<string, number[]>> = {};
    // Every server measured at once (callgrind counts, whatever else runs), each driven by its own loop.
    await Promise.all(
      servers.map(async (server, i) => {
        const poke = () => ({ path: '/healthz' });
        for (const scenario of scenarios) {
          const next = scenario.plan(i);
          log(`${server.label}: warming (${scenario.key}, ${scenario.warm} requests) …`);
          await drive(server.base, next, scenario.warm, scenario.concurrency);
          await control(server, ['-i', 'on'], poke);
          await drive(server.base, next, Math.ceil(scenario.count / 10), scenario.concurrency);
          for (let w = 0; w < windows; w += 1) {
            // Every window starts from a collected heap (BENCH_CEILING's route calls gc()), so
            // none inherits another's garbage.
            await drive(server.base, () => ({ path: '/bench-ceiling?memory=1' }), 1, 1);
            await control(server, ['-z'], poke);
            await drive(server.base, next, scenario.count, scenario.concurrency);
            await control(server, ['-d'], poke);
            const dump = await lastDump(dir, server.managed.pid);
            const perRequest = dump.total / scenario.count;
            const mutator = (dump.total - dump.gc - dump.compile) / scenario.count;
            ((results[scenario.key] ??= {})[server.label] ??= []).push(perRequest);
            ((mutators[scenario.key] ??= {})[server.label] ??= []).push(mutator);
            log(
              `${server.label} ${scenario.key} window ${w + 1}: ${(perRequest / 1e6).toFixed(3)} M instructions per request, ` +
                `${(mutator / 1e6).toFixed(3)} M outside GC and compilers`,
            );
          }
          await control(server, ['-i', 'off'], poke);
        }
      }),
    );
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const m = Math.floor(s.length / 2);
      return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
    };
    console.log(
      `\nInstructions per request, ${products} products, ${windows} windows; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    // Each window's ratio is over the off servers' mean in the same window (those named off*).
    const offNames = specs.filter((s) => s.name.startsWith('off')).map((s) => s.name);
    const ratios = (byServer: Record<string, number[]>, name: string) =>
      (byServer[name] ?? []).map((x, w) => x / (offNames.reduce((a, o) => a + byServer[o]![w]!, 0) / offNames.length));
    const cell = (byServer: Record<string, number[]>, name: string) =>
      `${(byServer[name] ?? []).map((x) => (x / 1e6).toFixed(3)).join(' ')} | ${median(ratios(byServer, name)).toFixed(2)} (${ratios(
        byServer,
        name,
      )
        .map((r) => r.toFixed(2))
        .join(' ')})`;
    console.log(
      '| scenario | server | M instructions per request (windows) | over off, median (windows) | outside GC and compilers | over off |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [scenario, byServer] of Object.entries(results)) {
      for (const spec of specs) {
        console.log(
          `| ${scenario} | ${spec.name}${spec.settings ? ` (${spec.settings})` : ''} | ${cell(byServer, spec.name)} | ${cell(mutators[scenario]!, spec.name)} |`,
        );
      }
    }
    console.log(`spans exported: ${sink.spans()}`);
    console.log(JSON.stringify({ benchTracingInstructions: { products, servers: specs, results, mutators, spans: sink.spans() } }));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await stopAll();
    sink.server.close();
    if (flags.keep) for (const f of readdirSync(dir).filter((f) => f.startsWith('cg.'))) copyFileSync(join(dir, f), join(flags.keep, f));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
