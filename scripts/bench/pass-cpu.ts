// npx tsx --conditions=react-server scripts/bench/pass-cpu.ts [--products=2000] [--starts=2] [--connections=32] [--port=3699] [--db=file:<seeded>]
//   [--profile=<dir>] [--perf=<dir>]
//
// What a product read costs `next start` in CPU when it misses every cache against when it is a
// hit: a server started on the benchmark's build (NEXT_DIST_DIR, else .next-bench; build it
// with `npm run bench -- --only=product_cold` or `next build`), one pass over every product (its
// first: every answer made), then a second (every answer kept), and the server process's
// CPU (user + system, all its threads, from /proc) divided by the requests of each pass. The
// bench's product_cold/product_warm rows are the same passes as req/s against the bare app,
// which swing with the host; CPU a request does not swing with it as much. Then a pass in
// another market (every answer made again, by a process that has warmed up) and its second:
// what a miss costs apart from the process's first requests. Each pass's CPU is also split by
// thread (the main thread; V8's helpers, named `node`, compile and mark in the background).
// Issue #44 point 3.
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { closeDatabase, openDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';
import { startNextServer } from './server';
import { soldHandles } from './fixture';

const { values: flags } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    starts: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    port: { type: 'string', default: '3699' },
    db: { type: 'string' },
    // A V8 CPU profile of the server into this folder (written when it stops).
    profile: { type: 'string' },
    // `perf record` of the server's CPU (every thread, sampled on CPU time) into this folder,
    // one file a pass (<start>-<pass>.data; `perf report -i … --sort=sym`): the server runs
    // with --perf-basic-prof so its JavaScript has names.
    perf: { type: 'string' },
  },
});

const TICKS_PER_SECOND = 100;

/** The process's CPU so far in µs, from /proc (utime + stime of all its threads). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/**
 * CPU so far (µs) by thread: the main thread (where requests run) apart from the rest
 * (libuv's pool, V8's GC helpers, the checkpoint worker, libSQL's threads), by name.
 */
function threadMicros(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND);
  }
  return out;
}

/** The threads' CPU between two readings, µs a request, largest first. */
function threadsBetween(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  return [...after]
    .map(([name, us]) => [name, (us - (before.get(name) ?? 0)) / requests] as const)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => `${name} ${us.toFixed(0)}`)
    .join(', ');
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sd-pass-cpu-'));
  const url = flags.db ?? `file:${join(dir, 'site.db')}`;
  const database = openDatabase({ url });
  let token: string;
  let handles: string[];
  try {
    if (!flags.db) {
      await migrateDatabase(database);
      await seedDatabase(database, { products: Number(flags.products) });
    }
    token = (await createCredential(database, { siteHandle: 'demo', scope: 'core', label: 'pass-cpu' })).token;
    handles = await soldHandles(database);
  } finally {
    closeDatabase(database);
  }
  const nodeOptions = /\bnode ((?:--\S+ )+)node_modules\/next\//
    .exec((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start)![1]!
    .trim()
    .split(' ');
  const connections = Number(flags.connections);
  try {
    for (let start = 1; start <= Number(flags.starts); start += 1) {
      const server = await startNextServer({
        label: 'pass-cpu',
        port: Number(flags.port),
        databaseUrl: url,
        storefrontCredential: token,
        nodeOptions: flags.perf ? [...nodeOptions, '--perf-basic-prof'] : nodeOptions,
        cpuProfileDir: flags.profile,
        env: { PAGE_RENDER_AHEAD: 'off' },
      });
      try {
        const pid = server.managed.pid;
        let passes = 0;
        const pass = async (of: string[], query = '') => {
          let next = 0;
          passes += 1;
          const perf = flags.perf
            ? spawn(
                'perf',
                ['record', '-q', '-e', 'cpu-clock', '-F', '2000', '-p', String(pid), '-o', join(flags.perf, `${start}-${passes}.data`)],
                {
                  stdio: 'ignore',
                },
              )
            : null;
          // perf needs a moment to attach
          if (perf) await new Promise((resolve) => setTimeout(resolve, 500));
          const cpu = cpuMicros(pid);
          const threads = threadMicros(pid);
          const started = performance.now();
          await Promise.all(
            Array.from({ length: connections }, async () => {
              while (next < of.length) {
                const handle = of[next++]!;
                const response = await fetch(`${server.base}/site/v1/commerce/products/${handle}${query}`, {
                  // As the bench's load asks (autocannon): no compression.
                  headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
                });
                await response.arrayBuffer();
                if (response.status !== 200) throw new Error(`${handle}: ${response.status}`);
              }
            }),
          );
          if (perf) {
            const exited = new Promise((resolve) => perf.once('exit', resolve));
            perf.kill('SIGINT');
            await exited;
          }
          return {
            cpuUs: (cpuMicros(pid) - cpu) / of.length,
            rps: (of.length / (performance.now() - started)) * 1000,
            threads: threadsBetween(threads, threadMicros(pid), of.length),
          };
        };
        // The first pass in halves: how much of its cost is the process warming up (the first
        // half) rather than the answers being made (both halves).
        // With a profile, a pause before each pass cuts the profile into one segment a pass
        // (profile-passes.ts).
        const pause = () => (flags.profile ? new Promise((resolve) => setTimeout(resolve, 1000)) : undefined);
        const half = handles.length >> 1;
        await pause();
        const firstHalf = await pass(handles.slice(0, half));
        await pause();
        const secondHalf = await pass(handles.slice(half));
        await pause();
        const second = await pass(handles);
        await pause();
        const third = await pass(handles);
        // Misses on a warmed-up process: another market's answers (a key of their own), read
        // after the process has served the catalog three times, then the same again (hits).
        await pause();
        const warmMiss = await pass(handles, '?market=de');
        await pause();
        const warmHit = await pass(handles, '?market=de');
        const us = (m: { cpuUs: number; rps: number }) => `${m.cpuUs.toFixed(0)} µs (${m.rps.toFixed(0)} req/s)`;
        const byThread = {
          'first half': firstHalf,
          'second half': secondHalf,
          second,
          third,
          'warm misses': warmMiss,
          'warm hits': warmHit,
        };
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
        console.log(
          `start ${start}: RSS ${(kb('VmRSS') / 1024).toFixed(1)} MB (peak ${(kb('VmHWM') / 1024).toFixed(1)} MB, ${kb('Threads')} threads); CPU a read, first pass ${us(firstHalf)} then ${us(secondHalf)}, second pass ${us(second)}, third ${us(third)}; ` +
            `first pass's second half ÷ third pass ${(secondHalf.cpuUs / third.cpuUs).toFixed(2)}; ` +
            `warmed up, another market: misses ${us(warmMiss)}, hits ${us(warmHit)}, miss ÷ hit ${(warmMiss.cpuUs / warmHit.cpuUs).toFixed(2)}`,
        );
        for (const [name, m] of Object.entries(byThread)) console.log(`  ${name}, µs a read by thread: ${m.threads}`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    if (!flags.db) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
