import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { closeDatabase, readTransaction, type Database } from '@/db';
import { getCollection, getPublishedProduct, listCatalog, listProducts } from '@/lib/commerce/catalog';
import { chooseMarket, type MarketChoice } from '@/lib/commerce/markets';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { freshDatabase, type TestDatabase } from './support/database';

// One answer, one snapshot: another process commits catalog changes in a loop, each giving
// every product and every price a version of its own (the product's updatedAt and its prices),
// while products, catalog pages, list pages and collections are read here. An answer that
// shows two versions read some of its statements before a commit and some after (as the
// products, texts, images and variants of one answer each read on their own did: an import's
// new prices beside the old product).

let t: TestDatabase;
let site: SiteContext['site'];
let se: MarketChoice;

beforeAll(async () => {
  t = await freshDatabase();
  const { token } = await createCredential(t.database, { siteHandle: 'demo', scope: 'core' });
  site = (await authenticateCredential(t.database, token))!.site;
  se = await chooseMarket(t.database, site, { market: 'se' });
});
afterAll(() => {
  closeDatabase(t.database);
  rmSync(t.dir, { recursive: true, force: true });
});

/**
 * Another process (an import on another instance): commits versions 1 … `last` of the
 * catalog, each in one transaction: every product updated at <v> ms, every price v.00.
 */
function commitInAnotherProcess(file: string, last: number) {
  const source = `
    const Database = require('node:module').createRequire(process.cwd() + '/package.json')('libsql');
    const db = new Database(${JSON.stringify(file)}, { timeout: 5000 });
    const products = db.prepare('UPDATE products SET updated_at = ?');
    const prices = db.prepare('UPDATE variant_prices SET amount = ?, compare_at_amount = NULL');
    for (let v = 1; v <= ${last}; v++) {
      db.exec('BEGIN IMMEDIATE');
      products.run(v);
      prices.run(v * 100);
      db.exec('COMMIT');
      if (v === 1) console.log('first');
    }
    db.close();`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const done = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { first, done };
}

type Shown = {
  updatedAt: string;
  variants?: Array<{ price: { amount: string } }>;
  priceRange?: { min: { amount: string }; max: { amount: string } };
};

/** Every version one answer shows, by its products' updatedAt and its prices. */
function versionsIn(products: readonly Shown[]) {
  const seen = new Set<number>();
  for (const p of products) {
    seen.add(Date.parse(p.updatedAt));
    for (const v of p.variants ?? []) seen.add(Number(v.price.amount));
    if (p.priceRange) [p.priceRange.min, p.priceRange.max].forEach((m) => seen.add(Number(m.amount)));
  }
  return seen;
}

describe('reads while another process commits catalog changes', () => {
  it('never mix two versions of the catalog in one answer', { timeout: 120_000 }, async () => {
    const { database } = t;
    const handles = (await listCatalog(database, site, se, { limit: 100 })).data.map((p) => p.handle);
    expect(handles.length).toBeGreaterThan(20);

    const COMMITS = 800;
    const writer = commitInAnotherProcess(t.file, COMMITS);
    let committing = true;
    void writer.done.then(() => (committing = false));
    await writer.first;

    const mixed: string[] = [];
    const answered = new Set<number>();
    let answers = 0;
    // Each read gets a Site at a catalog version never seen, so no cache answers it.
    let fresh = 0;
    const uncached = () => ({ ...site, catalogVersion: -1000 - fresh++ });
    const check = (what: string, products: readonly Shown[]) => {
      const versions = versionsIn(products);
      answers += 1;
      if (versions.size !== 1 || versions.has(NaN)) mixed.push(`${what}: ${[...versions].join(', ')}`);
      else answered.add([...versions][0]!);
    };
    const reader = async (which: number) => {
      for (let i = 0; committing; i++) {
        const handle = handles[(i * 7 + which * 13) % handles.length]!;
        switch ((i + which) % 4) {
          case 0:
            check(`product ${handle}`, [await getPublishedProduct(database, uncached(), handle, se)]);
            break;
          case 1:
            check('catalog page', (await listCatalog(database, uncached(), se, { limit: 20 })).data);
            break;
          case 2:
            check('products page', (await listProducts(database, uncached(), se, { limit: 20 })).data);
            break;
          default:
            check('collection', (await getCollection(database, uncached(), 'kitchen', se, { limit: 20 })).products);
        }
        // Reads on a local file settle without a turn of the event loop: let the writer's exit be seen.
        await new Promise((r) => setImmediate(r));
      }
    };
    await Promise.all(Array.from({ length: 3 }, (_, which) => reader(which)));
    expect(await writer.done).toBe(0);
    expect(mixed.slice(0, 5), `${mixed.length} of ${answers} answers mixed two versions`).toEqual([]);
    // The reads did run beside the commits: they saw many versions.
    expect(answered.size).toBeGreaterThan(20);
    expect(Date.parse((await getPublishedProduct(database, uncached(), handles[0]!, se)).updatedAt)).toBe(COMMITS);
  });
});

describe('readTransaction', () => {
  it('sees one snapshot: a commit made meanwhile is not seen until the next transaction', async () => {
    const { database } = t;
    const name = async (db: Database) => (await db.all<{ name: string }>(sql`SELECT name FROM sites WHERE handle = 'demo'`))[0]!.name;
    const before = await name(database);
    const inside = await readTransaction(database, async (tx) => {
      const first = await name(tx);
      await database.run(sql`UPDATE sites SET name = 'Renamed meanwhile' WHERE handle = 'demo'`);
      return [first, await name(tx)];
    });
    expect(inside).toEqual([before, before]);
    expect(await name(database)).toBe('Renamed meanwhile');
    await database.run(sql`UPDATE sites SET name = ${before} WHERE handle = 'demo'`);
  });

  it('runs many at once, beyond the read connections, with plain reads beside them', async () => {
    const { database } = t;
    const count = async (db: Database) => Number((await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM products`))[0]!.n);
    const expected = await count(database);
    const held = Array.from({ length: 40 }, () =>
      readTransaction(database, async (tx) => {
        const a = await count(tx);
        await new Promise((r) => setTimeout(r, 20));
        return a + (await count(database)) - (await count(tx));
      }),
    );
    expect(await Promise.all(held)).toEqual(Array(40).fill(expected));
  });
});
