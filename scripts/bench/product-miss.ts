// LOG_LEVEL=warn npx tsx --conditions=react-server scripts/bench/product-miss.ts [--products=2000] [--rounds=5] [--connections=8]
//   [--db=file:<a seeded database>] [--misses-only (every pass a miss: for node --cpu-prof)]
//
// What an API product read costs in CPU when it misses every cache against when it is a hit,
// in process: the route handler itself (GET /site/v1/commerce/products/{handle}, with its
// wrapper: credential, limits, parsing, the answer cache), called with Requests, no HTTP
// server and no Next around it. Each round is a pass over the whole catalog with the answer
// cache emptied (every read a miss, as a server's first pass), then a pass with it full (every
// read a hit). Process CPU (user + system, all threads) per request; on a shared host steadier
// than requests a second. Issue #44 point 3: a miss ≤ 1.5× a hit.
import { mkdtempSync, rmSync } from 'node:fs';
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
  },
});

const dir = mkdtempSync(join(tmpdir(), 'sd-product-miss-'));
const url = flags.db ?? `file:${join(dir, 'site.db')}`;

async function prepare(): Promise<{ token: string; handles: string[] }> {
  const database = openDatabase({ url });
  try {
    if (!flags.db) {
      await migrateDatabase(database, url);
      await seedDatabase(database, { products: Number(flags.products) });
    }
    const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core', label: 'product-miss' });
    const handles = await soldHandles(database);
    return { token, handles };
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

  async function pass(): Promise<{ cpuUs: number; ms: number; bytes: number }> {
    let next = 0;
    let bytes = 0;
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
    return { cpuUs: (used.user + used.system) / handles.length, ms: performance.now() - started, bytes: bytes / handles.length };
  }

  // A first round, unmeasured: the code's first runs (compiling, the first statements prepared).
  answerCache.clear();
  await pass();
  await pass();
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < Number(flags.rounds); round += 1) {
    answerCache.clear();
    const miss = await pass();
    const hit = flags['misses-only'] ? miss : await pass();
    ratios.push(miss.cpuUs / hit.cpuUs);
    rows.push(
      `round ${round + 1}: miss ${miss.cpuUs.toFixed(0)} µs CPU (${((handles.length / miss.ms) * 1000).toFixed(0)} req/s), ` +
        `hit ${hit.cpuUs.toFixed(0)} µs CPU (${((handles.length / hit.ms) * 1000).toFixed(0)} req/s), ` +
        `miss/hit ${(miss.cpuUs / hit.cpuUs).toFixed(2)}, ${miss.bytes.toFixed(0)} B an answer`,
    );
  }
  console.log(`${handles.length} products, ${connections} at a time`);
  for (const row of rows) console.log(row);
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`miss/hit median ${sorted[sorted.length >> 1]!.toFixed(2)} (min ${sorted[0]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)})`);
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
