import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, type Database } from '@/db';
import * as schema from '@/db/schema';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { contentDigest, freshDatabase } from './support/database';

// The commands a merchant types, run as they run them (tsx, the same flags as package.json),
// in a scratch folder of their own so .env.local is theirs.
const ROOT = new URL('..', import.meta.url).pathname;
// Each command starts a Node process with tsx (a second or more on a busy machine), some tests run three.
vi.setConfig({ testTimeout: 120_000 });

// tsx by path: the scratch folder has no node_modules to resolve it from
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
let dir: string;
let url: string;
let database: Database;

function run(script: string, args: string[]) {
  const result = spawnSync(process.execPath, ['--conditions=react-server', '--import', TSX, join(ROOT, 'scripts', script), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      DATABASE_URL: url,
      TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
      SITE_API_CREDENTIAL: '',
      NODE_ENV: 'production',
    },
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(async () => {
  ({ database, dir, url } = await freshDatabase());
});

afterAll(() => {
  closeDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run db:seed', () => {
  it('refuses a database that has data, and changes nothing', async () => {
    const hash = await contentDigest(database);
    const { code, err } = run('seed.ts', []);
    expect(code).toBe(1);
    expect(err).toMatch(/already has a shop in it/);
    expect(err).toMatch(/--force/);
    expect(await contentDigest(database)).toBe(hash);
    expect(existsSync(join(dir, '.env.local'))).toBe(false);
  });

  it('with --force reseeds but keeps every credential, so a running storefront keeps working', async () => {
    const storefront = await createCredential(database, { siteHandle: 'demo', scope: 'extended', label: 'reference storefront' });
    writeFileSync(join(dir, '.env.local'), `OTHER=1\nSITE_API_CREDENTIAL=${storefront.token}\n`);
    const [before] = await database.select().from(schema.sites).where(eq(schema.sites.handle, 'demo'));
    await database.update(schema.products).set({ status: 'archived' }).where(eq(schema.products.handle, 'fjord-ceramic-mug'));

    const { code, out, err } = run('seed.ts', ['--force']);
    expect(code, err).toBe(0);
    expect(out).toMatch(/Seeded in/);
    // the demo is back, the storefront's credential still works, and .env.local is as it was
    const [mug] = await database.select().from(schema.products).where(eq(schema.products.handle, 'fjord-ceramic-mug'));
    expect(mug?.status).toBe('published');
    expect(await authenticateCredential(database, storefront.token)).not.toBeNull();
    expect(readFileSync(join(dir, '.env.local'), 'utf8')).toBe(`OTHER=1\nSITE_API_CREDENTIAL=${storefront.token}\n`);
    // caches keyed on the old catalog version cannot answer for the new catalog
    const [after] = await database.select().from(schema.sites).where(eq(schema.sites.handle, 'demo'));
    expect(after!.catalogVersion).toBeGreaterThan(before!.catalogVersion);
  });

  it('with --force re-issues the storefront credential into .env.local when it was not live', async () => {
    writeFileSync(join(dir, '.env.local'), `SITE_API_CREDENTIAL=site_extended_${'0'.repeat(40)}\n`);
    const { code, err } = run('seed.ts', ['--force']);
    expect(code, err).toBe(0);
    const token = /SITE_API_CREDENTIAL=(\S+)/.exec(readFileSync(join(dir, '.env.local'), 'utf8'))![1]!;
    expect(await authenticateCredential(database, token)).toMatchObject({ scope: 'extended', site: { handle: 'demo' } });
  });
});

describe('npm run catalog', () => {
  it('export, then import of the same file: nothing to change', () => {
    const file = join(dir, 'demo.json');
    const exported = run('catalog.ts', ['export', '--site', 'demo', '--out', file]);
    expect(exported.code, exported.err).toBe(0);
    const imported = run('catalog.ts', ['import', '--site', 'demo', file]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/products\s+created 0, updated 0, unchanged 49/);
    expect(imported.out).toMatch(/Nothing to change/);
  });

  it('refuses an invalid file with exit 1, one line per error, and writes nothing', async () => {
    const doc = JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8')) as {
      products: { handle: string; variants: { prices: Record<string, { amount: string }> }[] }[];
    };
    doc.products[0]!.variants[0]!.prices.se!.amount = '12,50';
    doc.products[1]!.handle = 'Not A Handle';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const hash = await contentDigest(database);
    const { code, err } = run('catalog.ts', ['import', '--site', 'demo', file]);
    expect(code).toBe(1);
    expect(err).toMatch(/Refused: 2 problem\(s\); nothing was written/);
    expect(err).toMatch(/line \d+, \/products\/0\/variants\/0\/prices\/se\/amount, "[a-z-]+", amount: expected a decimal string/);
    expect(err).toMatch(/\/products\/1\/handle, "Not A Handle", handle: expected a handle/);
    expect(await contentDigest(database)).toBe(hash);
  });

  it('refuses a file that is not UTF-8, naming line, column and byte, and writes nothing', async () => {
    // "Café" saved as Latin-1: a lenient decoder read it as "Caf\uFFFD" and imported that
    const text = readFileSync(join(dir, 'demo.json'));
    const at = text.indexOf('"title": "') + '"title": "'.length;
    const file = join(dir, 'latin1.json');
    writeFileSync(file, Buffer.concat([text.subarray(0, at), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20]), text.subarray(at)]));
    const line = text.subarray(0, at).toString().split('\n').length;
    const column = at - text.lastIndexOf('\n', at) + 3;
    const hash = await contentDigest(database);
    const { code, err } = run('catalog.ts', ['import', '--site', 'demo', file]);
    expect(code).toBe(1);
    expect(err).toContain(
      `line ${line}, column ${column}, (file): expected UTF-8 text (byte ${(at + 3).toLocaleString('en-US')} of the file, 0xE9 0x20`,
    );
    expect(await contentDigest(database)).toBe(hash);
  });

  it("imports a .csv file as Shopify's product CSV, dry run first", async () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'shopify-products.csv');
    const hash = await contentDigest(database);
    const dry = run('catalog.ts', ['import', '--site', 'demo', fixture, '--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/dry run: nothing written/);
    expect(dry.out).toMatch(/products\s+created 3, updated 0/);
    expect(dry.out).toMatch(/note: Markets de, us: existing variants keep their prices there; 9 new variant\(s\) get none/);
    expect(await contentDigest(database)).toBe(hash);
    const applied = run('catalog.ts', ['import', '--site', 'demo', fixture]);
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toMatch(/Applied: \d+ row\(s\) written in one transaction/);
  });

  it('delete HANDLE removes the product for real, dry run first; an unknown handle or a bad command line changes nothing', async () => {
    const [before] = await database.select().from(schema.products).where(eq(schema.products.handle, 'birch-bread-board'));
    expect(before, 'imported from the Shopify fixture above').toBeTruthy();
    const hash = await contentDigest(database);
    const dry = run('catalog.ts', ['delete', '--site', 'demo', 'birch-bread-board', '--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/products\s+created 0, updated 0, unchanged \d+, unpublished 0, deleted 1/);
    expect(await contentDigest(database)).toBe(hash);
    const unknown = run('catalog.ts', ['delete', '--site', 'demo', 'birch-bread-board', 'no-such-product']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/"no-such-product", handle: expected the handle of a product of Site "demo"/);
    expect(run('catalog.ts', ['delete', '--site', 'demo']).code).toBe(2);
    expect(run('catalog.ts', ['import', '--site', 'demo', join(dir, 'demo.json'), '--delete']).code).toBe(2);
    expect(await contentDigest(database)).toBe(hash);
    const done = run('catalog.ts', ['delete', '--site', 'demo', 'birch-bread-board']);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toMatch(/Applied: \d+ row\(s\) written in one transaction/);
    expect(await database.select().from(schema.products).where(eq(schema.products.handle, 'birch-bread-board'))).toEqual([]);
    expect(await database.select().from(schema.productVariants).where(eq(schema.productVariants.productId, before!.id))).toEqual([]);
  });

  it('stock SKU=QTY sets quantities and says what it did, nothing about files it was not given', async () => {
    const [variant, other] = await database.select().from(schema.productVariants).limit(2);
    const [before] = await database.select().from(schema.inventoryLevels).where(eq(schema.inventoryLevels.variantId, other!.id));
    const { code, out, err } = run('catalog.ts', ['stock', '--site', 'demo', `${variant!.sku}=42`, `${other!.sku}=${before!.quantity}`]);
    expect(code, err).toBe(0);
    expect(out).toMatch(
      /^Stock for Site "demo": 2 SKU\(s\) given, 1 quantity\(ies\) changed, 1 already as given\.\nApplied: \d+ row\(s\) written in one transaction; catalog version \d+ → \d+\./,
    );
    // no import plan: no file, collections, bundles or products it was not given
    expect(out).not.toMatch(/file|collection|bundle|products\s+created|note:/i);
    const again = run('catalog.ts', ['stock', '--site', 'demo', `${variant!.sku}=42`]);
    expect(again.out).toBe(
      'Stock for Site "demo": 1 SKU(s) given, 0 quantity(ies) changed, 1 already as given.\nNothing to change (catalog version stays ' +
        /stays (\d+)/.exec(again.out)![1] +
        ').\n',
    );
    const [level] = await database.select().from(schema.inventoryLevels).where(eq(schema.inventoryLevels.variantId, variant!.id));
    expect(level!.quantity).toBe(42);
    expect(run('catalog.ts', ['stock', '--site', 'demo', 'NO-SUCH=1']).code).toBe(1);
    expect(run('catalog.ts', ['stock', '--site', 'demo']).code).toBe(2);
    expect(run('catalog.ts', ['stock', '--site', 'demo', `${variant!.sku}=1`, '--prune']).code).toBe(2);
  });
});
