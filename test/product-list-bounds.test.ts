import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { listProducts } from '@/lib/commerce/catalog';
import { clearListIndexes } from '@/lib/commerce/catalog/list-index';
import { chooseMarket, type MarketChoice } from '@/lib/commerce/markets';
import { ProductListQuery } from '@/lib/contract/operations/reads';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { pageCache } from '@/lib/platform/cache/memo';
import { freshDatabase } from './support/database';
import { countRowsRead } from './support/rows-read';

/**
 * Issue #42: one shopper sending `sort=title-asc&priceMax=<new value>` (or facets, or 20 option
 * filters) made the API read every matching product and variant, on the event loop, for every
 * request. These hold the bounds: a request reads about its page's rows, whatever it filters,
 * and building what it reads over yields to other requests.
 */
const PRODUCTS = 1500;

let dir: string;
let database: Database;
let site: SiteContext['site'];
let se: MarketChoice;
let rowsRead: () => number;

const list = (query: Record<string, string | string[]>) => listProducts(database, site, se, ProductListQuery.parse(query));

beforeAll(async () => {
  ({ database, dir } = await freshDatabase({ seed: { products: PRODUCTS } }));
  const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
  site = (await authenticateCredential(database, token))!.site;
  se = await chooseMarket(database, site, {});
  rowsRead = countRowsRead(database.$client);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rows read by one uncached call (the page cache is cleared first). */
async function rowsOf(query: Record<string, string | string[]>): Promise<number> {
  pageCache.clear();
  const before = rowsRead();
  await list(query);
  return rowsRead() - before;
}

describe('bounded work per list request', () => {
  it('reads about a page of rows for a sorted, filtered, faceted list, whatever the filter values', async () => {
    const { facets } = await list({ facets: 'true', limit: '1' });
    const options = facets!.options.flatMap((o) => o.values.map((v) => `${o.name}:${v.value}`)).slice(0, 20);
    expect(options.length).toBe(20);
    const variants = Number((await database.$client.execute('select count(*) as n from product_variants')).rows[0]!.n);
    expect(variants).toBeGreaterThan(3 * PRODUCTS);
    const queries: Record<string, string | string[]>[] = [
      { sort: 'title-asc', priceMax: '901.00', limit: '100' },
      { sort: 'price-desc', priceMax: '903.00', facets: 'true' },
      { facets: 'true', priceMin: '907.00' },
      { option: options, facets: 'true', priceMax: '911.00', available: 'true' },
      { q: 'a', sort: 'newest', facets: 'true', priceMax: '913.00' },
      { q: 'a', priceMax: '917.00', limit: '100' },
      { q: 'a', priceMin: '1.00', priceMax: '1.00', limit: '100' },
    ];
    for (const [i, query] of queries.entries()) {
      // A search's matches are read once per catalog version (a broad word matches most of
      // the catalog); a new filter value on the same search reads only its page.
      if (query.q) await rowsOf({ ...query, priceMax: '2.00' });
      const rows = await rowsOf(query);
      // A page of 100 reads its products, texts, images and variants with prices: a few hundred
      // rows. Reading the catalog (1,500 products, 5,000+ variants) is what this keeps out.
      expect(rows, `request ${i}: ${JSON.stringify(query)}`).toBeLessThan(800);
    }
  });

  it('answers the same pages and facets as a brute-force reading of the catalog', async () => {
    const priceMax = 600;
    const all: { handle: string; title: string; min: number; amounts: number[] }[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ limit: '100', sort: 'title-asc', ...(cursor ? { cursor } : {}) });
      for (const p of page.data) all.push({ handle: p.handle, title: p.title, min: Number(p.priceRange.min.amount), amounts: [] });
      cursor = page.page.nextCursor ?? undefined;
    } while (cursor);
    expect(all.length).toBeGreaterThan(PRODUCTS);
    const collator = new Intl.Collator(se.locale, { sensitivity: 'base', numeric: true });
    const byTitle = [...all].sort((a, b) => collator.compare(a.title, b.title) || (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0));
    expect(all.map((p) => p.handle)).toEqual(byTitle.map((p) => p.handle));
    // Cheaper than priceMax: at least the lowest price is in range.
    const cheap = byTitle.filter((p) => p.min <= priceMax).map((p) => p.handle);
    const found: string[] = [];
    cursor = undefined;
    do {
      const page = await list({ limit: '97', sort: 'title-asc', priceMax: `${priceMax}.00`, ...(cursor ? { cursor } : {}) });
      found.push(...page.data.map((p) => p.handle));
      cursor = page.page.nextCursor ?? undefined;
    } while (cursor);
    expect(found).toEqual(cheap);
  });

  it('builds the list index in slices, giving other requests the event loop between them', async () => {
    clearListIndexes();
    pageCache.clear();
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    await list({ sort: 'title-asc', priceMax: '919.00' });
    done = true;
    // 1,500 products are three slices of 500: the loop turns between them.
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
