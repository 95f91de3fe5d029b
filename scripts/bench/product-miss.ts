// LOG_LEVEL=warn npx tsx --conditions=react-server scripts/bench/product-miss.ts [--products=2000] [--rounds=5] [--connections=8]
//   [--db=file:<a seeded database>] [--misses-only (every pass a miss: for node --cpu-prof)] [--limit=<products>]
//
// Under callgrind, instructions instead of CPU time (the same count whatever the host's load):
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=<dir>/cg.%p node --import tsx/esm \
//     --conditions=react-server scripts/bench/product-miss.ts --callgrind=<dir> --limit=200 --rounds=2
// counts only the measured passes (it switches callgrind on around each with callgrind_control).
//
// What an API product read costs in CPU when it misses every cache against when it is a hit,
// in process: the route handler itself (GET /site/v1/commerce/products/{handle}, with its
// wrapper: credential, limits, parsing, the answer cache), called with Requests, no HTTP
// server and no Next around it. Each round is a pass over the whole catalog with the answer
// cache emptied (every read a miss, as a server's first pass), then a pass with it full (every
// read a hit). Process CPU (user + system, all threads) per request; on a shared host steadier
// than requests a second. Issue #44 point 3: a miss ≤ 1.5× a hit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeDatabase, openDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';
import { soldHandles } from './fixture';

const { values: flags } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    db: { type: 'string' },
    // Only passes that miss (for a CPU profile of misses alone).
    'misses-only': { type: 'boolean', default: false },
    // Only the first <n> products (a pass under callgrind is ~50× slower).
    limit: { type: 'string' },
    // Running under callgrind: count each measured pass's instructions (dumped into this folder).
    callgrind: { type: 'string' },
  },
});

const dir = mkdtempSync(join(tmpdir(), 'sd-product-miss-'));
const url = flags.db ?? `file:${join(dir, 'site.db')}`;

async function prepare(): Promise<{ token: string; handles: string[] }> {
  const database = openDatabase({ url });
  try {
    if (!flags.db) {
      await migrateDatabase(database);
      await seedDatabase(database, { products: Number(flags.products) });
    }
    const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core', label: 'product-miss' });
    const handles = await soldHandles(database);
    return { token, handles: flags.limit ? handles.slice(0, Number(flags.limit)) : handles };
  } finally {
    closeDatabase(database);
  }
}

async function main() {
  const { token, handles } = await prepare();
  Object.assign(process.env, { DATABASE_URL: url, NODE_ENV: 'production', JOBS: 'cron' });
  const { GET } = await import('@/app/site/v1/commerce/products/[handle]/route');
  const { answerCache } = await import('@/lib/platform/cache/memo');
  const headers = { authorization: `Bearer ${token}` };
  const connections = Number(flags.connections);

  async function pass(): Promise<{ cpuUs: number; ms: number; bytes: number; instructions?: number }> {
    let next = 0;
    let bytes = 0;
    if (flags.callgrind) execFileSync('callgrind_control', ['--instr=on', String(process.pid)], { stdio: 'ignore' });
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < handles.length) {
          const handle = handles[next++]!;
          const response = await GET(new Request(`http://127.0.0.1/site/v1/commerce/products/${handle}`, { headers }), {
            params: Promise.resolve({ handle }),
          });
          if (response.status !== 200) throw new Error(`${handle}: ${response.status} ${await response.text()}`);
          const text = await response.text();
          bytes += text.length;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    const instructions = flags.callgrind ? instructionsSinceLastDump() : undefined;
    return {
      cpuUs: (used.user + used.system) / handles.length,
      ms: performance.now() - started,
      bytes: bytes / handles.length,
      instructions,
    };
  }

  // A first round, unmeasured: the code's first runs (compiling, the first statements prepared).
  answerCache.clear();
  await pass();
  await pass();
  const per = (m: { instructions?: number }) =>
    m.instructions === undefined ? '' : `, ${(m.instructions / handles.length / 1e3).toFixed(0)}k instructions`;
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < Number(flags.rounds); round += 1) {
    answerCache.clear();
    const miss = await pass();
    const hit = flags['misses-only'] ? miss : await pass();
    ratios.push(miss.cpuUs / hit.cpuUs);
    rows.push(
      `round ${round + 1}: miss ${miss.cpuUs.toFixed(0)} µs CPU (${((handles.length / miss.ms) * 1000).toFixed(0)} req/s${per(miss)}), ` +
        `hit ${hit.cpuUs.toFixed(0)} µs CPU (${((handles.length / hit.ms) * 1000).toFixed(0)} req/s${per(hit)}), ` +
        (miss.instructions && hit.instructions ? `instructions miss/hit ${(miss.instructions / hit.instructions).toFixed(2)}, ` : '') +
        `miss/hit ${(miss.cpuUs / hit.cpuUs).toFixed(2)}, ${miss.bytes.toFixed(0)} B an answer`,
    );
  }
  console.log(`${handles.length} products, ${connections} at a time`);
  for (const row of rows) console.log(row);
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`miss/hit median ${sorted[sorted.length >> 1]!.toFixed(2)} (min ${sorted[0]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)})`);
}

/**
 * The instructions callgrind counted since it was switched on for this pass: it is switched
 * off, its counts dumped (a file of their own) and the file's total read.
 */
function instructionsSinceLastDump(): number {
  const dir = flags.callgrind!;
  const before = new Set(readdirSync(dir));
  execFileSync('callgrind_control', ['--instr=off', String(process.pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['--dump', String(process.pid)], { stdio: 'ignore' });
  const dumped = readdirSync(dir).filter((f) => !before.has(f));
  let total = 0;
  for (const file of dumped) total += Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0);
  return total;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!flags.db) rmSync(dir, { recursive: true, force: true });
    // Timers of the modules imported (limits, caches) would keep the process alive.
    setTimeout(() => process.exit(), 100).unref();
  });
