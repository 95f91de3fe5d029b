// npx tsx --conditions=react-server scripts/bench/search-growth.ts [--sizes 1000,10000,100000] [--seconds 3]
//
// How search cost grows with the catalog, in-process (no HTTP, no server): seeds a database
// per size with the benchmark catalog (as scripts/bench/fixture.ts does) in a temporary
// folder, discovers the three query kinds of scripts/bench/search.ts from it, and measures each
// kind uncached (the page cache is cleared before every call) rotating over its queries. Then
// the import cost of the index: the same catalog imported into an empty Site with the index
// and into one without it (its tables and triggers dropped). Prints a table and one JSON line.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getTableName } from 'drizzle-orm';
import { closeDatabase, execute, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { listProducts } from '@/lib/commerce/catalog';
import { documentSource, exportCatalogTo, importCatalog, readCatalogDocument } from '@/lib/commerce/catalog/transfer';
import { chooseMarket } from '@/lib/commerce/markets';
import { ProductListQuery } from '@/lib/contract/operations/reads';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { pageCache } from '@/lib/platform/cache/memo';
import { discoverSearchQueries, type SearchGet } from './search';
import { CATALOG_TABLES } from '@/db/seed';

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    seconds: { type: 'string', default: '3' },
    /** Import measured up to this size (at 100k each import takes minutes on a busy host). */
    'import-max': { type: 'string', default: '100000' },
    /** Measure an existing database file instead of seeding (no import measurement). */
    db: { type: 'string' },
  },
});

type Stats = { n: number; p50: number; p95: number; max: number; cpuP50: number; cpuP95: number };
const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Wall time and CPU time per call. SQLite runs on this thread, so on a host whose other work
 * takes the cores (load average above the 2 cores) the CPU time still says what a query costs,
 * while the wall time also counts the waits for a core.
 */
function stats(wall: number[], cpu: number[]): Stats {
  const at = (samples: number[], q: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  };
  return { n: wall.length, p50: at(wall, 0.5), p95: at(wall, 0.95), max: at(wall, 1), cpuP50: at(cpu, 0.5), cpuP95: at(cpu, 0.95) };
}

/** The API's products list, in-process: what GET /site/v1/commerce/products answers. */
async function inProcess(database: Database): Promise<SearchGet> {
  const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core', label: 'search-growth' });
  return async (path) => {
    const url = new URL(path, 'http://bench.invalid');
    const raw: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) raw[k] = k === 'option' ? [...((raw[k] as string[] | undefined) ?? []), v] : v;
    const site = (await authenticateCredential(database, token))!.site;
    const query = ProductListQuery.parse(raw);
    const choice = await chooseMarket(database, site, { market: query.market, locale: query.locale });
    return { status: 200, body: await listProducts(database, site, choice, query) };
  };
}

async function measureQueries(database: Database, seconds: number) {
  const get = await inProcess(database);
  const queries = await discoverSearchQueries(get);
  // For reference, the same list without a search (what any page of 24 costs here).
  const plain = { list: ['/site/v1/commerce/products?limit=24'] };
  const out: Record<string, Stats & { queries: number }> = {};
  for (const [kind, paths] of Object.entries({ ...queries, ...plain })) {
    const wall: number[] = [];
    const cpu: number[] = [];
    const until = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < until || i < paths.length; i += 1) {
      pageCache.clear();
      const c = process.cpuUsage();
      const t = performance.now();
      await get(paths[i % paths.length]!);
      wall.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      if (i >= 4 * paths.length && performance.now() >= until) break;
    }
    out[kind] = { ...stats(wall, cpu), queries: paths.length };
  }
  return out;
}

async function fresh(url: string): Promise<Database> {
  const database = openDatabase({ url });
  await migrateDatabase(database);
  return database;
}

/** Drops the search index (its triggers and tables) from a database: the import without it. */
async function dropSearchIndex(database: Database): Promise<void> {
  const { rows } = await execute(
    database,
    "select type, name from sqlite_master where (type = 'trigger' and name like '%search%') or (type = 'table' and name like 'product_search%' and sql like 'CREATE VIRTUAL TABLE%') order by type = 'table'",
  );
  for (const r of rows) await execute(database, `DROP ${String(r.type).toUpperCase()} IF EXISTS "${String(r.name)}"`);
}

async function importSeconds(
  dir: string,
  file: string,
  label: string,
  withIndex: boolean,
): Promise<{ seconds: number; cpuSeconds: number }> {
  const url = `file:${join(dir, `import-${label}.db`)}`;
  const target = await fresh(url);
  await seedDatabase(target, {});
  for (const table of CATALOG_TABLES) await execute(target, `DELETE FROM "${getTableName(table)}"`);
  if (!withIndex) await dropSearchIndex(target);
  const { createReadStream } = await import('node:fs');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const parsed = await readCatalogDocument(createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }));
  if (!parsed.ok) throw new Error(`export does not validate: ${JSON.stringify(parsed.issues.slice(0, 3))}`);
  const result = await importCatalog(target, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo' });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (!result.ok) throw new Error(`import refused: ${JSON.stringify(result.issues.slice(0, 3))}`);
  closeDatabase(target);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${url.slice('file:'.length)}${suffix}`, { force: true });
  return { seconds: Math.round(seconds * 100) / 100, cpuSeconds: Math.round((used.user + used.system) / 1e4) / 100 };
}

type Import = { withIndex: number; withoutIndex: number; ratio: number };
type Row = {
  products: number;
  seedSeconds?: number;
  queries: Awaited<ReturnType<typeof measureQueries>>;
  import?: Import & { cpu: Import };
};

async function main() {
  const seconds = Number(flags.seconds);
  const rows: Row[] = [];
  if (flags.db) {
    const database = openDatabase({ url: `file:${flags.db}` });
    rows.push({
      products: Number((await execute(database, 'select count(*) as n from products')).rows[0]!.n),
      queries: await measureQueries(database, seconds),
    });
    closeDatabase(database);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'sd-search-growth-'));
    try {
      for (const products of flags.sizes.split(',').map(Number)) {
        const url = `file:${join(dir, `site-${products}.db`)}`;
        const database = await fresh(url);
        const t = performance.now();
        await seedDatabase(database, { products });
        const seedSeconds = Math.round((performance.now() - t) / 100) / 10;
        const row: Row = { products, seedSeconds, queries: await measureQueries(database, seconds) };
        if (products <= Number(flags['import-max'])) {
          // chunk by chunk: at 100k products the document is longer than a JavaScript string may be
          const file = join(dir, `export-${products}.json`);
          writeFileSync(file, '');
          await exportCatalogTo(database, 'demo', (chunk) => appendFileSync(file, chunk));
          // Alternating, best of two (one each at 100k, where an import takes minutes): the first
          // import of a process also pays for compiling the import's code.
          const runs = products > 10000 ? 1 : 2;
          let withoutIndex = { seconds: Infinity, cpuSeconds: Infinity };
          let withIndex = { seconds: Infinity, cpuSeconds: Infinity };
          const best = (a: typeof withIndex, b: typeof withIndex) => ({
            seconds: Math.min(a.seconds, b.seconds),
            cpuSeconds: Math.min(a.cpuSeconds, b.cpuSeconds),
          });
          for (let run = 0; run < runs; run += 1) {
            withoutIndex = best(withoutIndex, await importSeconds(dir, file, `${products}-bare-${run}`, false));
            withIndex = best(withIndex, await importSeconds(dir, file, `${products}-indexed-${run}`, true));
          }
          row.import = {
            withIndex: withIndex.seconds,
            withoutIndex: withoutIndex.seconds,
            ratio: Math.round((withIndex.seconds / withoutIndex.seconds) * 100) / 100,
            cpu: {
              withIndex: withIndex.cpuSeconds,
              withoutIndex: withoutIndex.cpuSeconds,
              ratio: Math.round((withIndex.cpuSeconds / withoutIndex.cpuSeconds) * 100) / 100,
            },
          };
        }
        closeDatabase(database);
        rows.push(row);
        // each size as soon as it is measured (a 100k run takes a while)
        console.error(JSON.stringify({ searchGrowthRow: row, loadAverage: loadavg() }));
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${url.slice('file:'.length)}${suffix}`, { force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const kinds = ['twoWord', 'prefix', 'faceted', 'list'] as const;
  console.log(`\nsearch growth, in-process, uncached: p50 / p95, wall ms (CPU ms) (load average ${load})\n`);
  console.log(`| products | ${kinds.join(' | ')} | import with / without index, s |`);
  console.log(`|---:|${kinds.map(() => '---:').join('|')}|---:|`);
  for (const r of rows) {
    const imp = r.import
      ? `${r.import.withIndex} / ${r.import.withoutIndex} (${r.import.ratio}×); CPU ${r.import.cpu.withIndex} / ${r.import.cpu.withoutIndex} (${r.import.cpu.ratio}×)`
      : '–';
    const cell = (s: Stats) => `${s.p50} / ${s.p95} (${s.cpuP50} / ${s.cpuP95})`;
    console.log(`| ${r.products} | ${kinds.map((k) => cell(r.queries[k]!)).join(' | ')} | ${imp} |`);
  }
  console.log(JSON.stringify({ searchGrowth: { loadAverage: loadavg(), rows } }));
}

await main();
