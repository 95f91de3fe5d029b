import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { execute } from '@/db';
import { listProducts } from '@/lib/commerce/catalog';
import { clearListIndexes } from '@/lib/commerce/catalog/list-index';
import { chooseMarket, type MarketChoice } from '@/lib/commerce/markets';
import { ProductListQuery } from '@/lib/contract/operations/reads';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { pageCache } from '@/lib/platform/cache/memo';
import { freshDatabase } from './support/database';
import { countRowsRead } from './support/rows-read';

/**
 * Issue #42: the list index was built again whole after any catalog change (1–1.5 s of CPU at
 * 10,000 products), so a stream of changes made every list request after one pay for it. A
 * change now reads only the products it names (catalog_changes) and merges them in: these hold
 * that the merged index answers exactly as one built whole would, and reads a few rows.
 */
const PRODUCTS = 1200;

let dir: string;
let database: Database;
let token: string;
let site: SiteContext['site'];
let se: MarketChoice;
let rowsRead: () => number;

const list = (query: Record<string, string | string[]>) => listProducts(database, site, se, ProductListQuery.parse(query));
const sql = (statement: string, args: (string | number)[] = []) => execute(database, { sql: statement, args });

/** The Site as a request now sees it (its catalog version moved with each change). */
async function signIn(): Promise<void> {
  site = (await authenticateCredential(database, token))!.site;
  se = await chooseMarket(database, site, {});
}

beforeAll(async () => {
  ({ database, dir } = await freshDatabase({ seed: { products: PRODUCTS } }));
  ({ token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' }));
  await signIn();
  rowsRead = countRowsRead(database.$client);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every page of a list (limit 100), and the first page's facets when asked. */
async function wholeList(query: Record<string, string | string[]>) {
  const pages = [];
  let cursor: string | undefined;
  do {
    const page = await list({ ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.page.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

/** The lists each order and filter gives, read through whatever index is kept. */
async function answers(option: string) {
  pageCache.clear();
  const queries: Record<string, string | string[]>[] = [
    {},
    { sort: 'title-asc' },
    { sort: 'price-asc', priceMax: '700.00' },
    { sort: 'price-desc', option: [option], facets: 'true' },
    { sort: 'newest', available: 'true', facets: 'true' },
    { facets: 'true', option: [option], available: 'true' },
  ];
  const all = [];
  for (const query of queries) all.push(await wholeList(query));
  return all;
}

describe('the list index after a catalog change', () => {
  it('merges the changed products in, answering as a whole build does, reading a few rows', async () => {
    const { facets } = await list({ facets: 'true', limit: '1' });
    const option = facets!.options.flatMap((o) => o.values.map((v) => `${o.name}:${v.value}`))[0]!;
    await answers(option); // the index and its orders made

    const handles = (await sql('select handle from products where status = ? order by handle', ['published'])).rows.map((r) =>
      String(r.handle),
    );
    const [changed, unpublished, renamed] = [handles[500]!, handles[700]!, handles[900]!];
    const idOf = async (handle: string) => String((await sql('select id from products where handle = ?', [handle])).rows[0]!.id);
    const changedId = await idOf(changed);
    // One product gets a new title, the lowest price and its variants sold out; another leaves; a third is renamed.
    await sql('update product_translations set title = ? where product_id = ?', ['Aaaa first of all', changedId]);
    await sql(
      'update variant_prices set amount = 1 where market_id = ? and variant_id in (select id from product_variants where product_id = ?)',
      [se.market.id, changedId],
    );
    await sql(
      "update inventory_levels set quantity = 0, policy = 'deny' where variant_id in (select id from product_variants where product_id = ?)",
      [changedId],
    );
    await sql('update products set status = ? where handle = ?', ['draft', unpublished]);
    await sql('update products set handle = ? where handle = ?', ['zz-renamed', renamed]);
    await signIn();

    pageCache.clear();
    const before = rowsRead();
    const first = await list({ sort: 'title-asc', limit: '5' });
    // Its changes and the three products read again (with their variants), and the page's images:
    // a build whole reads 1,200 products and their 4,000+ variants.
    expect(rowsRead() - before).toBeLessThan(100);
    expect(first.data[0]).toMatchObject({ handle: changed, title: 'Aaaa first of all', availability: 'out_of_stock' });
    expect(first.data[0]!.priceRange.min.amount).toBe((await list({ sort: 'price-asc', limit: '1' })).data[0]!.priceRange.min.amount);

    const merged = await answers(option);
    const plain = merged[0]!.flatMap((page) => page.data.map((p) => p.handle));
    expect(plain).not.toContain(unpublished);
    expect(plain).not.toContain(renamed);
    expect(plain.at(-1)).toBe('zz-renamed');
    expect(merged[4]!.flatMap((page) => page.data.map((p) => p.handle))).not.toContain(changed);

    clearListIndexes();
    expect(await answers(option)).toEqual(merged);
  });

  it('merges a product published again, and keeps answering as a whole build does over several changes', async () => {
    const option = (await list({ facets: 'true', limit: '1' })).facets!.options[0]!;
    const name = `${option.name}:${option.values[0]!.value}`;
    await answers(name);
    const [draft] = (await sql('select handle from products where status = ? limit 1', ['draft'])).rows.map((r) => String(r.handle));
    await sql('update products set status = ? where handle = ?', ['published', draft!]);
    await signIn();
    const once = await answers(name);
    expect(once[0]!.flatMap((page) => page.data.map((p) => p.handle))).toContain(draft);
    await sql(
      'update variant_prices set amount = amount + 10000000 where market_id = ? and variant_id in (select v.id from product_variants v join products p on p.id = v.product_id where p.handle = ?)',
      [se.market.id, draft!],
    );
    await signIn();
    const twice = await answers(name);
    expect(twice[2]!.flatMap((page) => page.data.map((p) => p.handle))).not.toContain(draft);
    clearListIndexes();
    expect(await answers(name)).toEqual(twice);
  });
});
