import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, execute, type Database } from '@/db';
import { freshDatabase } from './support/database';

// Files beyond the import's limits, run through `npm run catalog` as merchants run it: the
// same heap cap as package.json, in a process of its own. Before the limits, each of these
// ran the heap out and the process died (exit 134); now each is refused, exit 1.
const ROOT = new URL('..', import.meta.url).pathname;
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const SCRIPT = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.catalog as string;
const HEAP_CAP = /--max-old-space-size=\d+/.exec(SCRIPT)![0];
vi.setConfig({ testTimeout: 120_000 });

let database: Database;
let dir: string;
let url: string;

beforeAll(async () => {
  ({ database, dir, url } = await freshDatabase());
});

afterAll(() => {
  closeDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: string) {
  const result = spawnSync(
    process.execPath,
    [HEAP_CAP, '--conditions=react-server', '--import', TSX, join(ROOT, 'scripts', 'catalog.ts'), 'import', '--site', 'demo', file],
    {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: url,
        TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
        SITE_API_CREDENTIAL: '',
        NODE_ENV: 'production',
        MALLOC_ARENA_MAX: '2',
      },
      timeout: 110_000,
    },
  );
  return { code: result.status, signal: result.signal, err: result.stderr };
}

/** Writes a file from parts, big ones as repeats of one buffer, and returns its path. */
function write(name: string, parts: (string | { repeat: Buffer; times: number })[]): string {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  for (const part of parts) {
    if (typeof part === 'string') writeSync(fd, part);
    else for (let i = 0; i < part.times; i++) writeSync(fd, part.repeat);
  }
  closeSync(fd);
  return file;
}

const MB = 1 << 20;
const head = '{\n  "format": "site-delivery-catalog",\n  "version": 1,\n  "site": "demo",\n  "markets": [],\n  "products": [\n';
const productOpen = (handle: string) =>
  `    {"handle": "${handle}", "status": "published", "texts": {"sv-SE": {"title": "Big", "description": "`;
const productClose = (sku: string) =>
  `"}}, "images": [], "options": [], "variants": [{"sku": "${sku}", "title": "Default", "options": {}, "prices": {}}]}`;

async function productCount(): Promise<number> {
  const result = await execute(database, 'SELECT count(*) AS n FROM products');
  return Number(result.rows[0]!.n);
}

describe('npm run catalog refuses input beyond its limits, without running out of memory', () => {
  it('a product of 600 MB: refused at 8 MB, naming where it starts', async () => {
    const before = await productCount();
    const file = write('huge-item.json', [
      head,
      productOpen('huge'),
      { repeat: Buffer.alloc(MB, 'a'), times: 600 },
      productClose('HUGE-1'),
      '\n  ],\n  "collections": []\n}\n',
    ]);
    const { code, signal, err } = importFile(file);
    rmSync(file);
    expect(signal, err).toBeNull();
    expect(code, err).toBe(1);
    expect(err).toContain('Refused: 1 problem(s); nothing was written.');
    expect(err).toContain('line 7, /products/0, products: expected a product of at most 8 MB of JSON (this one goes on past that)');
    expect(await productCount()).toBe(before);
  });

  it('a file of 136 MB whose products are each within the item limit: refused at 128 MB', async () => {
    const products = Array.from({ length: 34 }, (_, i) => [
      productOpen(`big-${i}`),
      { repeat: Buffer.alloc(MB, 'b'), times: 4 },
      productClose(`BIG-${i}`),
      i < 33 ? ',\n' : '\n',
    ]).flat();
    const file = write('big-file.json', [head, ...products, '  ],\n  "collections": []\n}\n']);
    const { code, signal, err } = importFile(file);
    rmSync(file);
    expect(signal, err).toBeNull();
    expect(code, err).toBe(1);
    expect(err).toMatch(
      /line \d+, \(file\): expected a file of at most 128 MB \(this one goes on past that; split it, or run the command with a bigger heap/,
    );
  });

  // the limit on rows (100,000) is tested in test/catalog-input.test.ts, with small limits
  it('a Shopify CSV of 300,000 rows, a product each: refused at the 20,001st product', async () => {
    const header = 'Handle,Title,Variant SKU,Variant Price\n';
    const rows: string[] = [];
    for (let i = 0; i < 300_000; i++) rows.push(`one-row-product-${i},One row product ${i},ONE-${i},199.00\n`);
    const file = write('products.csv', [header, rows.join('')]);
    const { code, signal, err } = importFile(file);
    rmSync(file);
    expect(signal, err).toBeNull();
    expect(code, err).toBe(1);
    expect(err).toContain('line 20002, column A "Handle": expected at most 20,000 products in one file');
  });
});
