import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { listCatalog, listProducts } from '@/lib/commerce/catalog';
import { chooseMarket, type MarketChoice } from '@/lib/commerce/markets';
import { buildOpenApiDocument } from '@/lib/contract/openapi';
import { CatalogListQuery, ProductListQuery } from '@/lib/contract/operations/reads';
import { freshDatabase } from './support/database';

let dir: string;
let database: Database;
let demo: SiteContext['site'];
let se: MarketChoice;
let all: { handle: string; variants: string[] }[];

beforeAll(async () => {
  ({ database, dir } = await freshDatabase());
  const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
  demo = (await authenticateCredential(database, token))!.site;
  se = await chooseMarket(database, demo, {});
  const page = await listCatalog(database, demo, se, { limit: 250 });
  all = page.data.map((p) => ({ handle: p.handle, variants: p.variants.map((v) => v.id) }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('product list filters', () => {
  it('narrows the products list to the handles named, in handle order; unknown handles match nothing', async () => {
    expect(all.length).toBeGreaterThan(5);
    const wanted = [all[4]!.handle, all[1]!.handle, 'no-such-product'];
    const page = await listProducts(database, demo, se, ProductListQuery.parse({ handles: wanted.join(',') }));
    expect(page.data.map((p) => p.handle)).toEqual([all[1]!.handle, all[4]!.handle]);
    expect(page.page.nextCursor).toBeNull();
  });

  it('finds the products of up to 100 variants in one catalog page, whatever their handles', async () => {
    const variants = all.flatMap((p) => p.variants);
    const some = [variants.at(-1)!, variants[0]!, variants[3]!, 'var_unknown'];
    const page = await listCatalog(database, demo, se, CatalogListQuery.parse({ variantIds: some.join(','), limit: '100' }));
    const owners = all.filter((p) => p.variants.some((v) => some.includes(v))).map((p) => p.handle);
    expect(page.data.map((p) => p.handle)).toEqual(owners);
    // Each product comes with all its variants (a cart line finds its price and title there).
    for (const product of page.data)
      expect(product.variants.map((v) => v.id)).toEqual(all.find((p) => p.handle === product.handle)!.variants);
  });

  it('combines filters with AND, and pages a filtered list like any other', async () => {
    const [a, b, c] = [all[0]!, all[1]!, all[2]!];
    const both = await listProducts(
      database,
      demo,
      se,
      ProductListQuery.parse({ handles: `${a.handle},${b.handle}`, variantIds: `${b.variants[0]},${c.variants[0]}` }),
    );
    expect(both.data.map((p) => p.handle)).toEqual([b.handle]);
    const first = await listProducts(
      database,
      demo,
      se,
      ProductListQuery.parse({ handles: `${a.handle},${b.handle},${c.handle}`, limit: '2' }),
    );
    expect(first.data.map((p) => p.handle)).toEqual([a.handle, b.handle]);
    const next = await listProducts(
      database,
      demo,
      se,
      ProductListQuery.parse({ handles: `${a.handle},${b.handle},${c.handle}`, limit: '2', cursor: first.page.nextCursor! }),
    );
    expect(next.data.map((p) => p.handle)).toEqual([c.handle]);
    // An unfiltered list is not served from a filtered one's cache entry, nor the other way round.
    expect((await listProducts(database, demo, se, ProductListQuery.parse({ limit: '2' }))).data.map((p) => p.handle)).toEqual([
      a.handle,
      b.handle,
    ]);
    expect(
      (await listProducts(database, demo, se, ProductListQuery.parse({ handles: c.handle, limit: '2' }))).data.map((p) => p.handle),
    ).toEqual([c.handle]);
  });

  it('validates the lists: 1–100 distinct values of sensible length', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `var_${i}`).join(',');
    expect(ProductListQuery.parse({ variantIds: `${ids(100)},var_0, ,var_1` }).variantIds).toHaveLength(100);
    expect(ProductListQuery.safeParse({ variantIds: ids(101) }).success).toBe(false);
    expect(ProductListQuery.safeParse({ handles: ',, ,' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ handles: 'x'.repeat(201) }).success).toBe(false);
    expect(ProductListQuery.safeParse({ handles: 'a,'.repeat(40_000) }).success).toBe(false); // over 64 KB
    expect(ProductListQuery.parse({}).handles).toBeUndefined();
  });

  it('documents both filters in the OpenAPI document', () => {
    const doc = JSON.stringify(buildOpenApiDocument());
    const paths = (
      buildOpenApiDocument() as { paths: Record<string, { get?: { parameters?: { name: string; schema?: { type?: string } }[] } }> }
    ).paths;
    for (const path of ['/site/v1/commerce/products', '/site/v1/commerce/catalog']) {
      const params = paths[path]?.get?.parameters ?? [];
      expect(params.find((p) => p.name === 'handles')?.schema?.type, `${path} handles`).toBe('string');
      expect(params.find((p) => p.name === 'variantIds')?.schema?.type, `${path} variantIds`).toBe('string');
    }
    expect(doc).toContain('Comma-separated product handles');
  });
});
