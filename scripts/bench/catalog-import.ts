// npm run -s bench:catalog [-- --products N]   (also the last step of `npm run bench`)
//
// A merchant's 10k-product catalog: seeds the benchmark catalog, exports it, imports the
// file into an empty Site of a fresh database in a child process of its own (so its peak
// RSS is the import's alone), exports again and compares the bytes. Prints one JSON line.
// With --latency MS the import's database is behind a simulated network (each request
// delayed MS, as to a remote libSQL server; test/support/network-client.ts), and the line
// gives its requests and its longest hold of the write lock. With --remote (and --latency,
// default 20) the import goes to the libSQL test server (e2e/support/libsql-server.ts: Hrana
// over HTTP, as to sqld or Turso) over the file, while the parent process (another instance
// of the shop) creates checkout sessions on the other Site through it, one after another;
// the line says how many went through, the slowest, and the longest any request ran on the
// server: the longest hold of the write lock.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeDatabase, execute, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { startLibsqlTestServer } from '../../e2e/support/libsql-server';
import { seedDatabase } from '@/db/seed';
import { documentSource, exportCatalogTo, importCatalog, readCatalogDocument } from '@/lib/commerce/catalog/transfer';
import { createCheckoutSession } from '@/lib/commerce/checkout';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { longestLock, overNetwork } from '../../test/support/network-client';

const { values: flags } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    child: { type: 'string' },
    file: { type: 'string' },
    latency: { type: 'string' },
    remote: { type: 'boolean', default: false },
  },
});

/** The heap cap `npm run catalog` runs with (package.json): the import measured as merchants run it. */
const CLI_NODE_FLAGS = [
  /--max-old-space-size=\d+/.exec(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.catalog)![0],
];

async function open(url: string): Promise<Database> {
  const database = openDatabase({ url });
  await migrateDatabase(database);
  return database;
}

/** The Site's export as `npm run catalog -- export` writes it. */
async function exported(database: Database): Promise<string> {
  const parts: string[] = [];
  await exportCatalogTo(database, 'demo', (chunk) => void parts.push(chunk));
  return parts.join('');
}

async function child(url: string, file: string, latencyMs: number | null): Promise<void> {
  const local = await open(url);
  const network = latencyMs === null ? null : overNetwork(local, latencyMs);
  const database = network?.database ?? local;
  const started = performance.now();
  const cpu = process.cpuUsage();
  // bytes, as the command reads them (it checks they are UTF-8 as it decodes)
  const parsed = await readCatalogDocument(createReadStream(file, { highWaterMark: 1 << 20 }));
  if (!parsed.ok) throw new Error(`the exported file does not validate: ${JSON.stringify(parsed.issues.slice(0, 5))}`);
  const result = await importCatalog(database, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo' });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (!result.ok) throw new Error(`import refused: ${JSON.stringify(result.issues.slice(0, 5))}`);
  // maxRSS is in KiB on Linux
  const lock = network ? longestLock(network.log) : null;
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      plan: result.plan,
      network: network &&
        lock && {
          latencyMs,
          requests: network.log.requests,
          writeRequests: network.log.writeRequests,
          longestLockMs: Math.round(lock.ms),
          longestLockNetworkMs: Math.round(lock.networkMs),
          locksMs: network.log.locks.map((l) => Math.round(l.ms)),
        },
    }),
  );
  closeDatabase(local);
}

type Checkouts = { created: number; failed: string[]; slowestMs: number };

/** Checkout sessions on `siteHandle`, one after another, until `stop`: what a shopper on another instance meets. */
async function checkoutLoop(database: Database, siteHandle: string): Promise<{ stop: () => void; done: Promise<Checkouts> }> {
  const context = (await authenticateCredential(database, (await createCredential(database, { siteHandle, scope: 'core' })).token))!;
  const [variant] = (
    await execute(database, {
      sql: `SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id JOIN inventory_levels i ON i.variant_id = v.id
        WHERE p.site_id = (SELECT id FROM sites WHERE handle = ?) AND p.status = 'published' ORDER BY i.policy = 'continue' DESC, i.quantity DESC LIMIT 1`,
      args: [siteHandle],
    })
  ).rows;
  let running = true;
  const result: Checkouts = { created: 0, failed: [], slowestMs: 0 };
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await createCheckoutSession(database, context, { lines: [{ variantId: String(variant!.id), quantity: 1 }] }, { ttlSeconds: 600 });
        result.created += 1;
      } catch (error) {
        result.failed.push(String((error as { code?: unknown }).code ?? error));
      }
      result.slowestMs = Math.max(result.slowestMs, Math.round(performance.now() - started));
      // a shopper's pace, and room for the import's own requests on this event loop's host
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return result;
  })();
  return { stop: () => (running = false), done };
}

type ChildResult = {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  plan: { products: { created: number } };
  network: {
    latencyMs: number;
    requests: number;
    writeRequests: number;
    longestLockMs: number;
    longestLockNetworkMs: number;
    /** Each write's hold of the lock, in order. */
    locksMs: number[];
  } | null;
};

function runChild(url: string, file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        ...CLI_NODE_FLAGS,
        '--conditions=react-server',
        '--import',
        'tsx',
        new URL(import.meta.url).pathname,
        '--child',
        url,
        '--file',
        file,
        ...(flags.latency && !flags.remote ? ['--latency', flags.latency] : []),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
      },
    );
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('error', reject);
    proc.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`import child exited ${code}: ${out}`)),
    );
  });
}

async function main(): Promise<void> {
  const count = Number(flags.products);
  const dir = mkdtempSync(join(tmpdir(), 'sd-catalog-bench-'));
  try {
    const source = await open(`file:${join(dir, 'source.db')}`);
    let t = performance.now();
    await seedDatabase(source, { products: count });
    const seedSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    const first = await exported(source);
    const exportSeconds = (performance.now() - t) / 1000;
    const file = join(dir, 'demo.json');
    writeFileSync(file, first);
    closeDatabase(source);

    const targetUrl = `file:${join(dir, 'target.db')}`;
    const target = await open(targetUrl);
    // The demo Site empty, the outlet's catalog kept (its products are what the checkouts buy).
    await seedDatabase(target, { demoCatalog: false });
    const server = flags.remote
      ? await startLibsqlTestServer({ path: join(dir, 'target.db'), latencyMs: Number(flags.latency ?? 20) })
      : null;
    // (a local import runs alone, so its time compares with earlier runs')
    const instance = server ? openDatabase({ url: server.url }) : null;
    const shopper = instance ? await checkoutLoop(instance, 'outlet') : null;
    const runs = server?.runs();
    const imported = await runChild(server?.url ?? targetUrl, file).finally(() => shopper?.stop());
    const checkouts = await shopper?.done;
    const serverRuns = runs?.stop() ?? [];
    if (server) {
      closeDatabase(instance!);
      await server.close();
    }
    const second = await exported(target);
    closeDatabase(target);

    const result = {
      products: count,
      fileMb: Math.round((Buffer.byteLength(first) / 1048576) * 10) / 10,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      exportSeconds: Math.round(exportSeconds * 10) / 10,
      importSeconds: Math.round(imported.seconds * 10) / 10,
      importCpuSeconds: Math.round(imported.cpuSeconds * 10) / 10,
      importPeakRssMb: imported.peakRssMb,
      productsCreated: imported.plan.products.created,
      roundTripIdentical: first === second,
      ...(imported.network ? { network: imported.network } : {}),
      checkoutsDuring: checkouts,
      ...(server
        ? {
            remote: {
              latencyMs: Number(flags.latency ?? 20),
              requests: serverRuns.length,
              longestRunMs: Math.round(Math.max(0, ...serverRuns)),
              /** The five longest, to tell the import's chunks, its last commit and its merge apart from the rest. */
              longestRunsMs: [...serverRuns]
                .sort((a, b) => b - a)
                .slice(0, 5)
                .map(Math.round),
              /** Requests that ran at least a second (a lock that long holds every other writer back). */
              runsOverASecond: serverRuns.filter((ms) => ms >= 1000).length,
            },
          }
        : {}),
    };
    console.error(
      `catalog import: ${result.productsCreated} products from a ${result.fileMb} MB file in ${result.importSeconds} s (${result.importCpuSeconds} s of CPU), peak RSS ${result.importPeakRssMb} MB; export ${result.exportSeconds} s; round trip ${result.roundTripIdentical ? 'byte-identical' : 'DIFFERENT'}`,
    );
    if (result.network) {
      const n = result.network;
      console.error(
        `  at ${n.latencyMs} ms a request: ${n.requests} requests, ${n.writeRequests} of them writes; longest write lock ${n.longestLockMs} ms, ${n.longestLockNetworkMs} ms of it on the network; each: ${n.locksMs.join(', ')} ms`,
      );
    }
    if (result.remote) {
      const r = result.remote;
      console.error(
        `  over the libSQL test server at ${r.latencyMs} ms a request: ${r.requests} requests (the import's and the checkouts'); the longest ran ${r.longestRunMs} ms on the server (the five longest: ${r.longestRunsMs.join(', ')} ms; ${r.runsOverASecond} ran 1 s or more)`,
      );
    }
    if (checkouts)
      console.error(
        `  checkouts on another instance meanwhile: ${checkouts.created} created, ${checkouts.failed.length} failed${checkouts.failed.length ? ` (${checkouts.failed.slice(0, 3).join('; ')})` : ''}; slowest ${checkouts.slowestMs} ms`,
      );
    console.log(JSON.stringify({ catalogImport: result }));
    if (checkouts && checkouts.failed.length > 0) process.exitCode = 1;
    if (!result.roundTripIdentical) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (flags.child) await child(flags.child, flags.file!, flags.latency ? Number(flags.latency) : null);
else await main();
